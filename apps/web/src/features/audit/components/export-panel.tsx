import type { AuditExportFormat } from '@sac/contract/audit';
import { useState } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { CsvExport, ExportProgress, useFileExport } from '../../../components/file-export.tsx';
import { streamedFile } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { exportTrail, type TrailQuery, useSigningKey } from '../api/audit-api.ts';
import auditTrailPageStyles from './audit-trail-page.module.css';
import styles from './export-panel.module.css';

/**
 * Export of the filtered trail as CSV or JSON lines, streamed, with the rows received of those
 * announced and a Cancel; the public key that verifies an exported file; and the periodic access
 * review (every member's roles and when a SuperAdmin last confirmed them), which the trail's
 * readers audit and may not reach on the team screen (an Auditor has no team.read).
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
      <h3 className={styles.auditReviewTitle}>{t('accessReviewTitle')}</h3>
      <p className="muted">{t('accessReviewIntro')}</p>
      <CsvExport list={t('accessReviewTitle')} download={streamedFile('teamReviewExport', undefined)} />
    </section>
  );
}
