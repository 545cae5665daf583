import { useCallback, useEffect, useRef } from "react";
import { type BlockerFunction, useBlocker } from "react-router";

export const UNSAVED_MESSAGE = "This fabric has unsaved changes. Leave the editor and lose them?";

/**
 * Warns before unsaved work is lost: the browser's prompt on reload or close (beforeunload), and a
 * confirm on every navigation inside the app (links, the back and forward buttons, navigate()),
 * through the data router's blocker; "Cancel" keeps the editor as it is. Returns `saved()`: call it
 * once the work is saved and before navigating away in the same tick (the next render would be too
 * late for the navigation that follows).
 */
export function useUnsavedWarning(dirty: boolean, message = UNSAVED_MESSAGE) {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = message; // older browsers show it; the rest show their own text
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [message]);

  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation: a, nextLocation: b }) =>
    dirtyRef.current && (a.pathname !== b.pathname || a.search !== b.search), []);
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);

  return { saved: useCallback(() => { dirtyRef.current = false; }, []) };
}
