import { useLayoutEffect, useRef, useState } from "react";

/** Width/height of the element the ref is attached to, kept current by a ResizeObserver. */
export function useParentSize<T extends HTMLElement>(initial = { width: 600, height: 300 }) {
  const ref = useRef<T>(null);
  const [size, setSize] = useState(initial);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const r = el.getBoundingClientRect();
      if (r.width > 0) setSize({ width: Math.floor(r.width), height: Math.floor(r.height) || initial.height });
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return { ref, ...size };
}
