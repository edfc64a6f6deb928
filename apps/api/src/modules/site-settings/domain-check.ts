import { Resolver } from 'node:dns/promises';

export interface DomainCheck {
  ok: boolean;
  /** Plain words for the console: what was found, or what is missing. */
  result: string;
}

const strip = (name: string) => name.replace(/\.$/, '').toLowerCase();

/**
 * Looks up a custom domain's records with Node's resolver (at `servers` when given): the domain
 * must be a CNAME to `target`, and `txtName` must hold a TXT record equal to `token`.
 */
export async function checkDomain(opts: {
  domain: string;
  target: string;
  txtName: string;
  token: string;
  servers: string[];
  timeoutMs?: number;
}): Promise<DomainCheck> {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: 2 });
  if (opts.servers.length > 0) resolver.setServers(opts.servers);
  const problems: string[] = [];
  try {
    const cnames = (await resolver.resolveCname(opts.domain)).map(strip);
    if (!cnames.includes(strip(opts.target))) {
      problems.push(
        `The CNAME of ${opts.domain} points to ${cnames.join(', ') || 'nothing'}, not ${opts.target}.`,
      );
    }
  } catch (e) {
    problems.push(
      `No CNAME record for ${opts.domain} was found (${(e as NodeJS.ErrnoException).code ?? 'lookup failed'}).`,
    );
  }
  try {
    const txt = (await resolver.resolveTxt(opts.txtName)).map((chunks) => chunks.join(''));
    if (!txt.includes(opts.token))
      problems.push(`The TXT record ${opts.txtName} does not hold the verification token.`);
  } catch (e) {
    problems.push(
      `No TXT record ${opts.txtName} was found (${(e as NodeJS.ErrnoException).code ?? 'lookup failed'}).`,
    );
  }
  return problems.length === 0
    ? { ok: true, result: 'The CNAME and the TXT verification token are in place.' }
    : { ok: false, result: problems.join(' ') };
}
