/**
 * Every page has its own address, reached by ordinary links: paths on the server
 * (`/runs/<id>/episodes?f.agent=…`), the same paths after `#` in a bundle (a file on disk has no
 * server to route paths). A click on an app link is handled here without reloading the page.
 */
import { type AnchorHTMLAttributes, useEffect, useState } from "react";
import { BUNDLE } from "./data.ts";

export interface Route {
  path: string;
  query: URLSearchParams;
}

export function currentRoute(): Route {
  const full = BUNDLE ? location.hash.replace(/^#/, "") || "/" : `${location.pathname}${location.search}`;
  const [path, query = ""] = full.split("?");
  return { path: path || "/", query: new URLSearchParams(query) };
}

/** The href of an app path (`/runs/x?y=1`). */
export function href(path: string): string {
  return BUNDLE ? `#${path}` : path;
}

export function navigate(path: string): void {
  if (BUNDLE) location.hash = path;
  else {
    history.pushState(null, "", path);
    window.dispatchEvent(new Event("bazaar-navigate"));
  }
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = () => setRoute(currentRoute());
    window.addEventListener("popstate", update);
    window.addEventListener("hashchange", update);
    window.addEventListener("bazaar-navigate", update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener("hashchange", update);
      window.removeEventListener("bazaar-navigate", update);
    };
  }, []);
  return route;
}

/** A link to an app page: a real `<a href>` (open in a new tab, copy, bookmark). */
export function Link({ to, ...rest }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a
      {...rest}
      href={href(to)}
      onClick={(e) => {
        if (BUNDLE || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        navigate(to);
        window.scrollTo(0, 0);
      }}
    />
  );
}

export function runPath(id: string, rest = ""): string {
  return `/runs/${encodeURIComponent(id)}${rest}`;
}
