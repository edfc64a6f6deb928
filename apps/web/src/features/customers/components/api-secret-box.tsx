import { useRef } from 'react';
import { DetailList } from '../../../components/detail-list.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import styles from './api-secret-box.module.css';

/**
 * A new site's API secret, shown once (the API keeps only its hash): a clearly warned, copyable
 * box. It stays until the user says they copied it or leaves the screen.
 */
export function ApiSecretBox({
  siteName,
  apiKey,
  secret,
  onHide,
}: {
  siteName: string;
  apiKey: string;
  secret: string;
  onHide: () => void;
}) {
  const t = useT('customers');
  const inputRef = useRef<HTMLInputElement>(null);
  const copy = async () => {
    inputRef.current?.select();
    try {
      await navigator.clipboard.writeText(secret);
      toast.success(t('copied'));
    } catch {
      toast.warning(t('copyFailed'));
    }
  };
  return (
    <section className={styles.secretBox} aria-labelledby="api-secret-title">
      <h2 id="api-secret-title" tabIndex={-1}>
        {t('apiSecretTitle', { name: siteName })}
      </h2>
      <p className={styles.secretWarning} role="alert">
        {t('apiSecretWarning')}
      </p>
      <p className="muted">{t('apiSecretDetail')}</p>
      <DetailList
        items={[
          {
            label: t('apiKey'),
            value: <code className={styles.secretKey}>{apiKey}</code>,
          },
        ]}
      />
      <div className="field">
        <label htmlFor="api-secret-value">{t('apiSecret')}</label>
        <div className="secret-row">
          <input
            ref={inputRef}
            id="api-secret-value"
            className={styles.secretInput}
            readOnly
            value={secret}
            spellCheck={false}
            autoComplete="off"
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button button-primary" onClick={() => void copy()}>
            {t('copy')}
          </button>
        </div>
      </div>
      <button type="button" className="button button-small" onClick={onHide}>
        {t('apiSecretHide')}
      </button>
    </section>
  );
}
