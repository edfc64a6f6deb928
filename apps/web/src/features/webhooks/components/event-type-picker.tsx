import { CheckboxGroup } from '../../../components/checkbox-group.tsx';
import fieldStyles from '../../../components/form-field.module.css';
import { useT } from '../../../lib/i18n.tsx';
import { EVENT_GROUPS, type EventGroup, groupOf } from './webhook-state.tsx';
import styles from './webhooks.module.css';

/**
 * The event types as checkboxes grouped by their first word (impersonation.*, staff.*, …), each
 * with what it means, and a box per group that chooses all of it (half-set when some are).
 */
export function EventTypePicker({
  types,
  value,
  error,
  onChange,
  onBlur,
}: {
  types: readonly { Type: string; Description: string }[];
  value: readonly string[];
  error?: string;
  onChange: (next: string[]) => void;
  onBlur: () => void;
}) {
  const t = useT('webhooks');
  const order = types.map((x) => x.Type);
  const inOrder = (chosen: Set<string>) => order.filter((x) => chosen.has(x));
  const known = new Set<string>(EVENT_GROUPS);
  const groups = [...EVENT_GROUPS, ...new Set(order.map(groupOf).filter((g) => !known.has(g)))];
  return (
    <fieldset
      className={`${styles.picker}${error ? ' has-error' : ''}`}
      aria-describedby={error ? 'webhook-types-error' : undefined}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onBlur();
      }}
    >
      <legend>{t('eventTypes')}</legend>
      {error ? (
        <p id="webhook-types-error" className={fieldStyles.fieldError}>
          {error}
        </p>
      ) : null}
      <div className={styles.groups}>
        {groups.map((g) => {
          const members = types.filter((x) => groupOf(x.Type) === g);
          if (members.length === 0) return null;
          const chosen = members.filter((x) => value.includes(x.Type)).length;
          const groupName = known.has(g) ? t(`group.${g as EventGroup}`) : g;
          return (
            <div key={g} className={styles.group}>
              <label className={`checkbox-option ${styles.selectAll}`}>
                <input
                  type="checkbox"
                  checked={chosen === members.length}
                  ref={(el) => {
                    if (el) el.indeterminate = chosen > 0 && chosen < members.length;
                  }}
                  onChange={(e) => {
                    const next = new Set(value);
                    for (const m of members) {
                      if (e.target.checked) next.add(m.Type);
                      else next.delete(m.Type);
                    }
                    onChange(inOrder(next));
                  }}
                />{' '}
                {t('selectAll', { group: groupName })}
              </label>
              <CheckboxGroup
                legend={groupName}
                name={`types-${g}`}
                options={members.map((m) => ({ value: m.Type, label: m.Type, hint: m.Description }))}
                value={value.filter((v) => groupOf(v) === g)}
                onChange={(mine) => {
                  const next = new Set(value.filter((v) => groupOf(v) !== g));
                  for (const m of mine) next.add(m);
                  onChange(inOrder(next));
                }}
              />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
