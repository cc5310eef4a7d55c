/**
 * The layout's import rules (DESIGN.md § Layout), checked on the import graph read from the code:
 * the kernel is below everything; environments (runner and store included) know actions, not who
 * acts; agents act and never reach for the runner, the store or the CLI; analysis is pure; datasets
 * know no policy and no estimator; nothing below the CLI imports it; and no two files import each
 * other, directly or round a longer circle. `npm test` runs it (test/scripts/layout.test.ts);
 * `npx tsx scripts/layout.ts` prints what breaks a rule.
 *
 * Imports are read with TypeScript's own pre-processor, so type-only imports, re-exports and
 * dynamic `import()` all count: a circle of types is still a circle in the design.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The layers a file belongs to, by where it sits. */
export type Layer =
  | "kernel"
  | "environments"
  | "runner"
  | "store"
  | "agents"
  | "analysis"
  | "datasets"
  | "cli";

export const PACKAGES = ["environments", "agents", "analysis", "datasets", "cli"] as const;

export function layerOf(file: string): Layer | null {
  const parts = file.split("/");
  const top = parts[0];
  if (top === "environments") {
    if (parts[1] === "kernel") return "kernel";
    if (parts[1] === "runner") return "runner";
    if (parts[1] === "store") return "store";
    return "environments";
  }
  return (PACKAGES as readonly string[]).includes(top ?? "") ? (top as Layer) : null;
}

/** What each layer must not import, and why (the message a broken rule prints). */
export const FORBIDDEN: Record<Layer, { layers: Layer[]; why: string }> = {
  kernel: {
    layers: ["environments", "runner", "store", "agents", "analysis", "datasets", "cli"],
    why: "the kernel is below everything: move what it needs into the kernel",
  },
  environments: {
    layers: ["agents", "analysis", "cli"],
    why: "environments know actions, not who acts or how trials are analysed",
  },
  runner: {
    layers: ["agents", "analysis", "cli"],
    why: "the runner takes agents as entries; it imports none",
  },
  store: { layers: ["agents", "analysis", "cli"], why: "the store keeps records; it knows no agent" },
  agents: {
    layers: ["runner", "store", "cli"],
    why: "agents act; they never import the runner, the store or the CLI (shared types live in the kernel)",
  },
  analysis: {
    layers: ["runner", "store", "agents", "cli"],
    why: "analysis is pure: trial records in, results out",
  },
  datasets: { layers: ["agents", "analysis", "cli"], why: "datasets know no policy and no estimator" },
  cli: { layers: [], why: "" },
};

export interface Edge {
  from: string;
  to: string;
}

export type Violation =
  | { kind: "forbidden"; from: string; to: string; message: string }
  | { kind: "unresolved"; from: string; spec: string; message: string }
  | { kind: "circle"; files: string[]; message: string };

function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name !== "node_modules") walk(child);
      } else if (/\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(child);
    }
  };
  for (const p of PACKAGES) if (existsSync(path.join(root, p))) walk(p);
  return out.sort();
}

/**
 * The import graph of the five packages. `overrides` replaces the text of files (or adds files),
 * so a test can show the rules catch an import without touching the tree.
 */
export function importGraph(
  root: string,
  overrides: ReadonlyMap<string, string> = new Map(),
): { files: string[]; edges: Edge[]; unresolved: Violation[] } {
  const files = [...new Set([...sourceFiles(root), ...overrides.keys()])].sort();
  const known = new Set(files);
  const edges: Edge[] = [];
  const unresolved: Violation[] = [];
  for (const file of files) {
    const text = overrides.get(file) ?? readFileSync(path.join(root, file), "utf8");
    for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!spec.startsWith(".")) continue; // a package from node_modules or node: itself
      const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (known.has(to)) edges.push({ from: file, to });
      else if (!existsSync(path.join(root, to)))
        unresolved.push({
          kind: "unresolved",
          from: file,
          spec,
          message: `${file}: cannot resolve "${spec}"`,
        });
      else if (layerOf(to) !== null) edges.push({ from: file, to });
    }
  }
  return { files, edges, unresolved };
}

/** Strongly connected components with more than one file (or a file importing itself). */
function circles(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  // Iterative Tarjan: the graph has hundreds of files and deep chains.
  for (const start of files) {
    if (order.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    order.set(start, index);
    low.set(start, index++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const outs = next.get(top.node) ?? [];
      if (top.i < outs.length) {
        const to = outs[top.i++]!;
        if (!order.has(to)) {
          order.set(to, index);
          low.set(to, index++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, order.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) === order.get(top.node)) {
        const scc: string[] = [];
        let n: string;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          scc.push(n);
        } while (n !== top.node);
        if (scc.length > 1 || outs.includes(top.node)) found.push(scc.sort());
      }
    }
  }
  return found;
}

/** Every broken rule of the tree at `root` (empty when the layout holds). */
export function checkLayout(root: string, overrides?: ReadonlyMap<string, string>): Violation[] {
  const { files, edges, unresolved } = importGraph(root, overrides);
  const out: Violation[] = [...unresolved];
  for (const e of edges) {
    const a = layerOf(e.from);
    const b = layerOf(e.to);
    if (a === null || b === null) continue;
    const rule = FORBIDDEN[a];
    if (rule.layers.includes(b))
      out.push({
        kind: "forbidden",
        from: e.from,
        to: e.to,
        message: `${e.from} imports ${e.to}: ${a} → ${b} is not allowed (${rule.why})`,
      });
  }
  for (const circle of circles(files, edges))
    out.push({ kind: "circle", files: circle, message: `import circle: ${circle.join(" ↔ ")}` });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = checkLayout(path.resolve(import.meta.dirname, ".."));
  for (const v of violations) console.log(v.message);
  console.log(violations.length === 0 ? "layout: every import rule holds" : `${violations.length} broken`);
  process.exitCode = violations.length === 0 ? 0 : 1;
}
