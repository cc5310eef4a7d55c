import { useEffect, useRef, useState } from "react";
import { BUNDLE, load } from "./data.ts";

export interface Loaded<T> {
  data: T | null;
  error: string | null;
}

/**
 * The answer to an API path, loaded again every `pollMs` while `poll` says so (live pages; never in
 * a bundle). The last answer stays shown while the next one loads.
 */
export function useLoad<T>(
  path: string | null,
  pollMs = 0,
  poll: (d: T | null) => boolean = () => true,
): Loaded<T> {
  const [state, setState] = useState<Loaded<T> & { path: string | null }>({ data: null, error: null, path });
  const pollRef = useRef(poll);
  pollRef.current = poll;
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last: T | null = null;
    if (path === null) return;
    const tick = () => {
      load<T>(path)
        .then((data) => {
          if (!alive) return;
          last = data;
          setState({ data, error: null, path });
        })
        .catch((err: Error) => {
          if (alive) setState((s) => ({ data: s.path === path ? s.data : null, error: err.message, path }));
        })
        .finally(() => {
          if (alive && pollMs > 0 && !BUNDLE && pollRef.current(last)) timer = setTimeout(tick, pollMs);
        });
    };
    setState((s) => (s.path === path ? s : { data: null, error: null, path }));
    tick();
    return () => {
      alive = false;
      if (timer) clearTimeout(timer);
    };
  }, [path, pollMs]);
  return state.path === path ? state : { data: null, error: null };
}
