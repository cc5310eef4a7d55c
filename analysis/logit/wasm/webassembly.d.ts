/**
 * The slice of the WebAssembly JS API the logit kernels use. Node has it at run time, but with
 * `lib: ["ES2023"]` (no DOM) TypeScript has no declaration of it.
 */
declare namespace WebAssembly {
  type Module = object;
  var Module: { new (bytes: Uint8Array): Module };
  interface Memory {
    readonly buffer: ArrayBuffer;
  }
  var Memory: { new (descriptor: { initial: number; maximum?: number }): Memory };
  interface Instance {
    readonly exports: Record<string, unknown>;
  }
  var Instance: { new (module: Module, imports: Record<string, Record<string, unknown>>): Instance };
  function validate(bytes: Uint8Array): boolean;
}
