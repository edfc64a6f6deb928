import type { SiteRef } from '../api/site-query.ts';

/**
 * The props every configuration section takes: the site (with the pair to call with, for the
 * impersonated site) and whether the viewer may change it.
 */
export interface SectionProps {
  site: SiteRef;
  canWrite: boolean;
  /** The id to give the section's heading. */
  headingId: string;
}
