/** True when `built` is missing or older than some file under `sources`. */
export function isStale(built: string, sources: string): boolean;
