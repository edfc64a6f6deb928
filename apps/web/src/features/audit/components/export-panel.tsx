import type { AuditExportFormat } from '@sac/contract/audit';
import { useEffect, useRef, useState } from 'react';
import { CopyButton } from '../../../components/copy-button.tsx';
import { ApiError, errorText } from '../../../lib/api-client.ts';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import { exportTrail, type TrailQuery, useSigningKey } from '../api/audit-api.ts';

interface Progress {
  format: AuditExportFormat;
  rows: number;
  total: number | undefined;
}

/** Hands a file to the browser's downloads. */
function saveFile(file: Blob, filename: string) {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Export of the filtered trail as CSV or JSON lines, streamed, with the rows received of those
 * announced and a Cancel; and the public key that verifies an exported file.
 */
export function ExportPanel({ query }: { query: TrailQuery }) {
  const t = useT('audit');
  const [progress, setProgress] = useState<Progress | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const abort = useRef<AbortController | undefined>(undefined);
  const [keyOpen, setKeyOpen] = useState(false);
  const key = useSigningKey(keyOpen);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async (format: AuditExportFormat) => {
    const controller = new AbortController();
    abort.current = controller;
    setFailure(undefined);
    setProgress({ format, rows: 0, total: undefined });
    let received = 0;
    try {
      const { file, filename } = await exportTrail(
        query,
        format,
        (rows, total) => {
          received = rows;
          setProgress({ format, rows, total });
        },
        controller.signal,
      );
      saveFile(file, filename);
      setProgress(undefined);
      toast.success(
        t('exportDone', {
          rows: received === 1 ? t('oneRow') : t('rows', { n: received.toLocaleString('en-US') }),
          file: filename,
        }),
      );
    } catch (e) {
      setProgress(undefined);
      if (controller.signal.aborted) toast.info(t('exportCancelled'));
      else setFailure(e instanceof ApiError ? errorText(e, t('exportFailed')) : t('exportFailed'));
    } finally {
      if (abort.current === controller) abort.current = undefined;
    }
  };

  return (
    <section className="audit-export" aria-labelledby="audit-export-title">
      <h2 id="audit-export-title">{t('exportTitle')}</h2>
      <p className="muted">{t('exportIntro')}</p>
      {progress ? (
        <div className="audit-export-progress" role="status">
          <progress
            aria-label={t('exportProgress')}
            max={progress.total || 1}
            value={progress.total === undefined ? undefined : progress.rows}
          />
          <span>
            {progress.total === undefined
              ? t('exportingUnknown', { done: progress.rows.toLocaleString('en-US') })
              : t('exporting', {
                  done: progress.rows.toLocaleString('en-US'),
                  total: progress.total.toLocaleString('en-US'),
                })}
          </span>
          <button type="button" className="button button-small" onClick={() => abort.current?.abort()}>
            {t('exportCancel')}
          </button>
        </div>
      ) : (
        <div className="form-actions">
          <button type="button" className="button" onClick={() => void start('csv')}>
            {t('exportCsv')}
          </button>
          <button type="button" className="button" onClick={() => void start('jsonl')}>
            {t('exportJsonl')}
          </button>
        </div>
      )}
      {failure ? (
        <p className="form-alert" role="alert">
          {failure}
        </p>
      ) : null}
      <details className="audit-signing-key" onToggle={(e) => setKeyOpen(e.currentTarget.open)}>
        <summary>{t('signingKey')}</summary>
        <p className="muted">{t('signingKeyIntro')}</p>
        {key.data ? (
          <>
            <pre className="audit-details">{key.data.PublicKey}</pre>
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
