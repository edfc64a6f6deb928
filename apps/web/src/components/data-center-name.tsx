import { useT } from '../lib/i18n.tsx';

/**
 * A data center as people name it ("EU West (Ireland)"), with its code (eu-west) in a tooltip:
 * the code is what the API, exports and logs carry, so the console shows it on hover. Without a
 * name (a code the catalogue no longer has) the code itself is shown; without a code, "Not set".
 * The one way the site overview, site details, notices and the dashboard write a data center.
 */
export function DataCenterName({ code, name }: { code: string | null | undefined; name?: string | null }) {
  const t = useT('common');
  if (!code) return <span>{t('notSet')}</span>;
  if (!name || name === code) return <span>{code}</span>;
  return (
    <span title={t('dataCenterCode', { code })} data-code={code}>
      {name}
    </span>
  );
}

/** A lookup of data center names by code, from any list of {Code, Name} the screen already has. */
export function dataCenterNames(centers: ReadonlyArray<{ Code: string; Name: string }> | undefined) {
  const byCode = new Map((centers ?? []).map((c) => [c.Code, c.Name]));
  return (code: string) => byCode.get(code);
}
