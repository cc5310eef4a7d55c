/**
 * The files of serve-sim's batch API (`/v1/files`): uploaded input files and the output and error
 * files batches write, kept in memory as OpenAI's File objects describe them.
 */
import type http from "node:http";

export interface SimFile {
  id: string;
  object: "file";
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: "processed";
  expires_at: null;
  status_details: null;
}

export class FileStore {
  private readonly files = new Map<string, { meta: SimFile; content: Buffer }>();
  private next = 0;

  add(filename: string, purpose: string, content: Buffer): SimFile {
    const meta: SimFile = {
      id: `file-sim${++this.next}`,
      object: "file",
      bytes: content.length,
      created_at: Math.floor(Date.now() / 1000),
      filename,
      purpose,
      status: "processed",
      expires_at: null,
      status_details: null,
    };
    this.files.set(meta.id, { meta, content });
    return meta;
  }

  get(id: string): { meta: SimFile; content: Buffer } | undefined {
    return this.files.get(id);
  }

  delete(id: string): boolean {
    return this.files.delete(id);
  }

  list(): SimFile[] {
    return [...this.files.values()].map((f) => f.meta);
  }

  get size(): number {
    return this.files.size;
  }
}

/** The request body, or null when it is over `limit` bytes (the rest is drained, not kept). */
export function readBody(req: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("error", reject);
    req.on("end", () => resolve(size > limit ? null : Buffer.concat(chunks)));
  });
}

/**
 * A multipart upload (`purpose` and `file`, as the OpenAI SDK sends them), parsed by the platform's
 * own form-data reader; a string naming what is wrong when it is not one.
 */
export async function readUpload(
  contentType: string | undefined,
  body: Buffer,
): Promise<{ filename: string; purpose: string; content: Buffer } | string> {
  if (!contentType?.startsWith("multipart/form-data"))
    return "upload a file as multipart/form-data with the fields 'purpose' and 'file'";
  let form: FormData;
  try {
    form = await new Request("http://serve-sim/v1/files", {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    }).formData();
  } catch (err) {
    return `could not read the multipart body: ${err instanceof Error ? err.message : String(err)}`;
  }
  const purpose = form.get("purpose");
  const file = form.get("file");
  if (typeof purpose !== "string" || purpose === "") return "missing the 'purpose' field";
  if (file === null || typeof file === "string") return "missing the 'file' field (a file part)";
  return { filename: file.name || "upload", purpose, content: Buffer.from(await file.arrayBuffer()) };
}
