/**
 * Who plays a role that records name only by role: a shop with offers names each listing's seller
 * negotiator `seller-1`, `seller-2`, …; the run's design lists their specs in that order. The live
 * view and the replay read it off the run's config and show `rule:boulware (seller-1)`.
 */
/** The role names of a run's stored config: its design's seller negotiators, in role order. */
export function roleNamesOf(config: unknown): Record<string, string> | undefined {
  const specs = (config as { design?: { sellerNegotiators?: unknown } } | null)?.design?.sellerNegotiators;
  if (!Array.isArray(specs) || specs.length === 0) return undefined;
  return Object.fromEntries(specs.map((spec, i) => [`seller-${i + 1}`, String(spec)]));
}
