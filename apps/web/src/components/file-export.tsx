import { useEffect, useRef, useState } from 'react';
import { ApiError, type Download, errorText } from '../lib/api-client.ts';
import { useT } from '../lib/i18n.tsx';
import { toast } from '../lib/toast-store.ts';
import styles from './file-export.module.css';

interface Progress {
  /** Which of a screen's exports runs (e.g. its format). */
  what: string;
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
 * One export at a time: its progress, Cancel, the saved file and the toast that names it; a
 * failure is kept to show beside the buttons. Leaving the screen cancels it.
 */
export function useFileExport() {
  const t = useT('common');
  const [progress, setProgress] = useState<Progress | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const abort = useRef<AbortController | undefined>(undefined);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async (what: string, download: Download) => {
    const controller = new AbortController();
    abort.current = controller;
    setFailure(undefined);
    setProgress({ what, rows: 0, total: undefined });
    let received = 0;
    try {
      const { file, filename } = await download((rows, total) => {
        received = rows;
        setProgress({ what, rows, total });
      }, controller.signal);
      saveFile(file, filename);
      setProgress(undefined);
      toast.success(
        t('exportDone', {
          rows: t('rows', { n: received }),
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
  return { progress, failure, start, cancel: () => abort.current?.abort() };
}

/** The running export's bar (rows of those announced) and its Cancel. */
export function ExportProgress({ progress, onCancel }: { progress: Progress; onCancel: () => void }) {
  const t = useT('common');
  return (
    <div className={styles.exportProgress} role="status">
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
      <button type="button" className="button button-small" onClick={onCancel}>
        {t('exportCancel')}
      </button>
    </div>
  );
}

/** "Export CSV" for one list: the button, then its progress, then any failure. */
export function CsvExport({
  list,
  download,
  named = false,
}: {
  list: string;
  download: Download;
  /** Its button says which list (beside the list's own "Export CSV": the selection's). */
  named?: boolean;
}) {
  const t = useT('common');
  const run = useFileExport();
  return (
    <div className={styles.csvExport}>
      {run.progress ? (
        <ExportProgress progress={run.progress} onCancel={run.cancel} />
      ) : (
        <button
          type="button"
          className="button button-small"
          aria-label={named ? undefined : t('exportCsvOf', { list })}
          onClick={() => void run.start('csv', download)}
        >
          {named ? t('exportCsvOf', { list }) : t('exportCsv')}
        </button>
      )}
      {run.failure ? (
        <p className="form-alert" role="alert">
          {run.failure}
        </p>
      ) : null}
    </div>
  );
}
