import { useReducer } from "react";
import { type EditorState, NEW_SCENARIO, fromScenarioDocument } from "./model";
import { type EditorAction, type History, historyReducer } from "./reducer";

/** The editor's document with undo/redo. */
export function useEditor(initial?: EditorState) {
  const [history, dispatch] = useReducer(
    historyReducer,
    undefined,
    (): History => ({ past: [], present: initial ?? fromScenarioDocument(NEW_SCENARIO), future: [] }),
  );
  return {
    state: history.present,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    dispatch: dispatch as (a: EditorAction) => void,
    undo: () => dispatch({ type: "undo" }),
    redo: () => dispatch({ type: "redo" }),
  };
}
