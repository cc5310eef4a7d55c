/**
 * The committed catalog's generator seed and size. A module of its own so that
 * `bazaar datasets generate --help` can name them without loading the generator and its schemas.
 */
export const DEFAULT_CATALOG_SEED = 2026;
export const DEFAULT_CATALOG_SIZE = 300;
