import type { RoleScope } from '@sac/contract/team';

/** The words a scope is told in (the team texts). */
interface ScopeWords {
  allSites: string;
  allDataCenters: string;
  allPlans: string;
}

/**
 * A role's scope in one line: "EU Central (Frankfurt), EU West (Ireland) · Free, Developer", an
 * open axis as "All data centers" / "All plans", no scope as "All sites". A data center's code
 * stands for it when its name is not known.
 */
export function scopeText(scope: RoleScope, names: ReadonlyMap<string, string>, words: ScopeWords): string {
  if (!scope) return words.allSites;
  const centers = scope.DataCenters?.map((c) => names.get(c) ?? c).join(', ') ?? words.allDataCenters;
  const plans = scope.Plans?.join(', ') ?? words.allPlans;
  return `${centers} · ${plans}`;
}
