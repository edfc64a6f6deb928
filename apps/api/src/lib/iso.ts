/** A timestamp as ISO-8601 text, or null when there is none. */
export const isoOrNull = (d: Date | string | null | undefined): string | null =>
  d ? (d instanceof Date ? d : new Date(d)).toISOString() : null;
