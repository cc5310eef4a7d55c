import poolFile from "./pool.json" with { type: "json" };
import { type Hotel, HotelSchema } from "./schema.ts";

/**
 * The default hotel pool: 179 invented New-York-like properties, generateHotelPool(2026, 179) as
 * committed in pool.json (a test keeps file and generator identical). Validated on load.
 */
export const DEFAULT_HOTEL_POOL: Hotel[] = HotelSchema.array().parse(poolFile.hotels);
