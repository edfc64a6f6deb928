import { useT } from '../../../lib/i18n.tsx';

/** A list of names as tags, or 'None'. */
export function TagValues({ values }: { values: readonly string[] }) {
  const t = useT('impersonation');
  if (values.length === 0) return <span className="muted">{t('none')}</span>;
  return (
    <ul className="tag-list tag-list-inline">
      {values.map((v) => (
        <li key={v} className="tag">
          {v}
        </li>
      ))}
    </ul>
  );
}
