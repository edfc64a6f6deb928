import { ALLOWLIST_MESSAGES } from '@sac/contract/api-tokens';
import { type FormEvent, useEffect, useState } from 'react';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { useAddressAllowlist, useSaveAddressAllowlist } from '../api/api-tokens-api.ts';

/**
 * The staff address allowlist (SuperAdmins): one address or CIDR range a line; empty lets every
 * address in. The caller's own address is shown, since the server refuses a list without it.
 */
export function AllowlistCard() {
  const t = useT('apiTokens');
  const list = useAddressAllowlist(true);
  const save = useSaveAddressAllowlist();
  const [text, setText] = useState('');
  useEffect(() => {
    if (list.data) setText(list.data.Entries.join('\n'));
  }, [list.data]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const entries = text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    save.mutate(entries, { onSuccess: () => toast.success(ALLOWLIST_MESSAGES.saved) });
  };
  return (
    <section className="card form-card" aria-labelledby="allowlist-heading">
      <h2 id="allowlist-heading">{t('allowlistHeading')}</h2>
      <p className="muted">{t('allowlistIntro')}</p>
      {list.data ? <p>{t('yourAddress', { address: list.data.YourAddress })}</p> : null}
      <form onSubmit={onSubmit} noValidate>
        <TextAreaField
          id="allowlist-entries"
          name="allowlist"
          label={t('allowlistEntries')}
          hint={t('addressesHint')}
          value={text}
          onValueChange={setText}
        />
        <div className="form-actions">
          <button
            type="submit"
            className="button button-primary"
            aria-busy={save.isPending}
            disabled={!list.data}
          >
            {save.isPending ? t('saving') : t('saveAllowlist')}
          </button>
        </div>
      </form>
    </section>
  );
}
