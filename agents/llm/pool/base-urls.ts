/**
 * `--base-url` as a user gives it: one URL, a comma-separated list (an endpoint pool), or `@file`
 * naming a pool file.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { UserError } from "../../../environments/kernel/errors.ts";
import { trimUrl } from "./replicas.ts";

/** A pool file: `{ "replicas": [{ "url": "http://gpu1:8000/v1" }, …] }`. */
const PoolFileSchema = z.strictObject({
  replicas: z.array(z.strictObject({ url: z.url({ error: "expected a URL" }) })).min(1, "lists no replica"),
});

/**
 * `--base-url` as given: one URL, a comma-separated list of them, or `@file` naming a pool file.
 * Bad input is a UserError that says where and what.
 */
export function parseBaseUrls(value: string): string[] {
  if (value.startsWith("@")) return readPoolFile(value.slice(1));
  const urls = value
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u !== "");
  if (urls.length === 0) throw new UserError("--base-url is empty", "give a URL, a,b,c or @pool.json");
  for (const u of urls)
    if (!z.url().safeParse(u).success)
      throw new UserError(
        `--base-url: "${u}" is not a URL`,
        "give a URL, a comma-separated list, or @pool.json",
      );
  return dedupe(urls, "--base-url");
}

function readPoolFile(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UserError(`cannot read the pool file ${file}`, "check the path after --base-url @");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UserError(
      `the pool file ${file} is not JSON (${(err as Error).message})`,
      'write { "replicas": [{ "url": "http://host:8000/v1" }, …] }',
    );
  }
  const parsed = PoolFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "the top level";
    throw new UserError(
      `the pool file ${file}: ${where} ${issue.message}`,
      'write { "replicas": [{ "url": "http://host:8000/v1" }, …] }',
    );
  }
  return dedupe(
    parsed.data.replicas.map((r) => r.url),
    `the pool file ${file}`,
  );
}

function dedupe(urls: string[], where: string): string[] {
  const seen = new Set<string>();
  for (const u of urls) {
    if (seen.has(trimUrl(u))) throw new UserError(`${where} lists ${u} twice`, "name each replica once");
    seen.add(trimUrl(u));
  }
  return urls;
}
