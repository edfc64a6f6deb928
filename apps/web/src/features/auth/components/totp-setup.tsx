import { useEffect, useState } from 'react';
import { FormField } from '../../../components/form-field.tsx';
import { useT } from '../../../lib/i18n.tsx';
import { toast } from '../../../lib/toast-store.ts';
import styles from './totp-setup.module.css';

/** The dark modules of a QR code as one SVG path, made by qrcode-generator, loaded on demand. */
function useQrPath(text: string): { path: string; size: number } | undefined {
  const [qr, setQr] = useState<{ path: string; size: number }>();
  useEffect(() => {
    let live = true;
    void import('qrcode-generator').then(({ default: qrcode }) => {
      const code = qrcode(0, 'M');
      code.addData(text);
      code.make();
      const n = code.getModuleCount();
      let path = '';
      for (let r = 0; r < n; r++)
        for (let c = 0; c < n; c++) if (code.isDark(r, c)) path += `M${c + 4} ${r + 4}h1v1h-1z`;
      if (live) setQr({ path, size: n + 8 });
    });
    return () => {
      live = false;
    };
  }, [text]);
  return qr;
}

/** The QR code of an otpauth:// address (SVG, no inline styles), and its secret as text with Copy. */
export function TotpSetup({ otpauthUrl, secret }: { otpauthUrl: string; secret: string }) {
  const t = useT('auth');
  const qr = useQrPath(otpauthUrl);
  const grouped = secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <div className="totp-setup">
      <p>{t('scanQr')}</p>
      <div className={styles.qrBox}>
        {qr ? (
          <svg
            role="img"
            aria-label={t('qrLabel')}
            viewBox={`0 0 ${qr.size} ${qr.size}`}
            width="200"
            height="200"
            shapeRendering="crispEdges"
          >
            <rect width={qr.size} height={qr.size} fill="#fff" />
            <path d={qr.path} fill="#000" />
          </svg>
        ) : (
          <span className="muted" aria-busy="true">
            …
          </span>
        )}
      </div>
      <p className="secret-row">
        <span className="muted">{t('secretKey')}</span>{' '}
        <code className={styles.secretText} data-testid="totp-secret" data-secret={secret}>
          {grouped}
        </code>{' '}
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            void navigator.clipboard?.writeText(secret).then(
              () => toast.success(t('copied')),
              () => undefined,
            );
          }}
        >
          {t('copy')}
        </button>
      </p>
    </div>
  );
}

/** The codes as a text file: a line saying whose they are, then one code a line. */
function recoveryCodesText(codes: readonly string[], title: string): string {
  return `${title}\n\n${codes.join('\n')}\n`;
}

/** Saves the codes as recovery-codes.txt through a download link (no server round trip). */
function downloadCodes(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'recovery-codes.txt';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Prints the codes alone: while the print dialog is open the page is marked, and the print sheet
 * (global.css) hides everything but the codes.
 */
function printCodes() {
  document.documentElement.dataset.printing = 'recovery-codes';
  const done = () => {
    delete document.documentElement.dataset.printing;
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
  // Browsers without afterprint return from print() once the dialog has closed.
  setTimeout(done, 0);
}

/** The ten recovery codes, shown once, with what they are for, and ways to keep them. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel,
  email = '',
  heading = true,
}: {
  codes: string[];
  onDone: () => void;
  doneLabel: string;
  /** Whose codes they are, written at the top of the file. */
  email?: string;
  /** False inside a dialog titled with the same words. */
  heading?: boolean;
}) {
  const t = useT('auth');
  const text = recoveryCodesText(codes, t('recoveryFileTitle', { email }));
  return (
    <section
      aria-labelledby={heading ? 'recovery-heading' : undefined}
      className={styles.recoveryCodes}
      data-print="recovery-codes"
    >
      {heading ? <h2 id="recovery-heading">{t('recoveryHeading')}</h2> : null}
      <p className="muted">{t('recoveryIntro')}</p>
      <ul className={styles.codeList}>
        {codes.map((c) => (
          <li key={c}>
            <code className={styles.recoveryCode}>{c}</code>
          </li>
        ))}
      </ul>
      <div className={styles.recoveryActions} data-print="hide">
        <button
          type="button"
          className="button"
          onClick={() => {
            void navigator.clipboard?.writeText(codes.join('\n')).then(
              () => toast.success(t('recoveryCopied')),
              () => undefined,
            );
          }}
        >
          {t('recoveryCopyAll')}
        </button>
        <button type="button" className="button" onClick={() => downloadCodes(text)}>
          {t('recoveryDownload')}
        </button>
        <button type="button" className="button" onClick={printCodes}>
          {t('recoveryPrint')}
        </button>
      </div>
      <button type="button" className="button button-primary" data-print="hide" onClick={onDone}>
        {doneLabel}
      </button>
    </section>
  );
}

/**
 * The field for an authenticator app's six digits (anything else typed is dropped), or with
 * `recovery` for a recovery code as written.
 */
export function OneTimeCodeField({
  id,
  label,
  value,
  error,
  recovery = false,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  error?: string;
  recovery?: boolean;
  onChange: (code: string) => void;
}) {
  return (
    <FormField
      id={id}
      name="code"
      label={label}
      value={value}
      error={error}
      maxLength={recovery ? 14 : 6}
      inputMode={recovery ? 'text' : 'numeric'}
      autoComplete="one-time-code"
      spellCheck={false}
      onValueChange={(v) => onChange(recovery ? v : v.replace(/\D/g, ''))}
    />
  );
}
