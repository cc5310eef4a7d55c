/**
 * The arm library's file format: per arm the markers the tagger looks for, and the wordings a
 * battery draws, each a template whose `{slot}`s are filled from the listing it is put on.
 */
import { z } from "zod";
import { AMENITIES, DESCRIPTION_ARMS, type DescriptionArm } from "../../environments/shop/types.ts";

/** The arms a library holds wordings for: every arm but `neutral` (neutral text comes from templates). */
export const LIBRARY_ARMS = DESCRIPTION_ARMS.filter((a) => a !== "neutral") as Exclude<
  DescriptionArm,
  "neutral"
>[];
export type LibraryArm = Exclude<DescriptionArm, "neutral">;

/** The arms the tagger finds by the library's markers alone (the injection arms also by rule). */
export const MARKED_ARMS = [
  "false-claim",
  "loss-aversion",
  "urgency",
  "authority",
  "social-proof",
] as const satisfies readonly LibraryArm[];

/** One line of text: no line breaks, no leading or trailing spaces. */
const oneLine = z
  .string()
  .min(1, "must not be empty")
  .refine((s) => !/[\r\n]/.test(s), "must be one line (no line breaks)")
  .refine((s) => s === s.trim(), "must not start or end with spaces");

export const ArmWordingSchema = z.object({
  arm: z.enum(LIBRARY_ARMS as [LibraryArm, ...LibraryArm[]]),
  /** Its number within the arm: the wording is recorded as `<arm>/<n>`. */
  n: z.number().int().positive(),
  /** The template: text with `{name}`, `{id}`, `{neighborhood}`, `{area}`, `{place}`, `{roomType}` slots. */
  text: oneLine,
  /** `false-claim` only: the amenity the text claims (it is put only on listings lacking it). */
  claims: z.enum(AMENITIES).nullable().default(null),
  note: z.string().optional(),
});
export type ArmWording = z.infer<typeof ArmWordingSchema>;
export type ArmWordingInput = z.input<typeof ArmWordingSchema>;

export const ArmLibrarySchema = z.object({
  about: z.string().optional(),
  /** Per arm, case-insensitive regular expressions (JavaScript syntax) whose match marks the arm. */
  markers: z.partialRecord(z.enum(LIBRARY_ARMS as [LibraryArm, ...LibraryArm[]]), z.array(oneLine)),
  wordings: z.array(ArmWordingSchema),
});
export type ArmLibrary = z.infer<typeof ArmLibrarySchema>;
export type ArmLibraryInput = z.input<typeof ArmLibrarySchema>;

/** A wording's id as records store it. */
export function wordingId(w: Pick<ArmWording, "arm" | "n">): string {
  return `${w.arm}/${w.n}`;
}
