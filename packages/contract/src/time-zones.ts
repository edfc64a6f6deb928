import timezones from 'timezones.json';

/**
 * The region identifiers of the time-zone reference list of spec section 3 (value, abbr, offset,
 * isdst, text, utc), from the timezones.json package. A customer's time zone is stored as one of the
 * entries' `utc` region identifiers, which the platform's clocks understand.
 */
const IDS = new Set(timezones.flatMap((z) => z.utc ?? []));
export const isTimeZoneId = (id: string): boolean => IDS.has(id);
/** The UTC entry's region identifier, for customers who choose none. */
export const DEFAULT_TIME_ZONE = 'Etc/GMT';
export const TIME_ZONE_MESSAGE = 'Please choose a time zone from the list.';
