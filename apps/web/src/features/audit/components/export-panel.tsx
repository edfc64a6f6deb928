import type { AuditExportFormat } from '@sac/contract/audit';
import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ExportProgress, useFileExport } from '../../../components/file-export.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { exportTrail, type TrailQuery, useSigningKey } from '../api/audit-api.ts';
import auditTrailPageStyles from './audit-trail-page.module.css';
import styles from './export-panel.module.css';

/**
 * Export of the filtered trail as CSV or JSON lines, streamed, with the rows received of those
 * announced and a Cancel; and the public key that verifies an exported file.
 */
export function ExportPanel({ query }: { query: TrailQuery }) {
  const t = useT('audit');
  const common = useT('common');
  const run = useFileExport();
  const [keyOpen, setKeyOpen] = useState(false);
  const key = useSigningKey(keyOpen);
  const start = (format: AuditExportFormat) => run.start(format, exportTrail(query, format));

  return (
    <section className={styles.auditExport} aria-labelledby="audit-export-title">
      <h2 id="audit-export-title">{t('exportTitle')}</h2>
      <p className="muted">{t('exportIntro')}</p>
      {run.progress ? (
        <ExportProgress progress={run.progress} onCancel={run.cancel} />
      ) : (
        <div className="form-actions">
          <button type="button" className="button" onClick={() => void start('csv')}>
            {common('exportCsv')}
          </button>
          <button type="button" className="button" onClick={() => void start('jsonl')}>
            {t('exportJsonl')}
          </button>
        </div>
      )}
      {run.failure ? (
        <p className="form-alert" role="alert">
          {run.failure}
        </p>
      ) : null}
      <details className={styles.auditSigningKey} onToggle={(e) => setKeyOpen(e.currentTarget.open)}>
        <summary>{t('signingKey')}</summary>
        <p className="muted">{t('signingKeyIntro')}</p>
        {key.data ? (
          <>
            <pre className={auditTrailPageStyles.auditDetails}>{key.data.PublicKey}</pre>
            <CopyButton text={key.data.PublicKey} label={t('signingKeyCopy')} />
          </>
        ) : key.isError ? (
          <p className="form-alert" role="alert">
            {t('signingKeyFailed')}
          </p>
        ) : null}
      </details>
    </section>
  );
}
