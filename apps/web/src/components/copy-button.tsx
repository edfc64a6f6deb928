import { useT } from '../lib/i18n.tsx';
import { toast } from '../lib/toast-store.ts';
import styles from './copy-button.module.css';

/**
 * A small 'Copy' button that puts `text` on the clipboard and says so in a toast. `label` names
 * it for assistive technology (it should start with the visible 'Copy').
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const t = useT('common');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('copied'));
    } catch {
      toast.warning(t('copyFailed'));
    }
  };
  return (
    <button
      type="button"
      className="button button-small copy-button"
      aria-label={label}
      onClick={() => void copy()}
    >
      {t('copy')}
    </button>
  );
}

/** An identifier or key as code, with a Copy button named after what it copies. */
export function CopyableCode({ text, label }: { text: string; label: string }) {
  return (
    <span className={styles.copyable}>
      <code className={styles.copyableText}>{text}</code>
      <CopyButton text={text} label={label} />
    </span>
  );
}
