type Scalar = string | number | boolean | null | undefined;

/**
 * Query parameters URL-encoded, as the console and the API's tests send them: empty values are
 * left out, an array is the parameter repeated, and '+' and spaces are escaped.
 */
export function toQueryString(query: Record<string, Scalar | readonly Scalar[]> | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(query)) {
    const values = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      if (v === undefined || v === null) continue;
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(v))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
