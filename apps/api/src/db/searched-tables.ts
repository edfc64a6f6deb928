/**
 * The tables the customer search reads, whose statistics its plans and whose visibility map its
 * index-only counts need fresh after a bulk load (seed:scale) or a new index (db:analyze).
 */
export const SEARCHED_TABLES = [
  'customers',
  'customer_addresses',
  'customer_name_keys',
  'sites',
  'site_owner_keys',
] as const;
