import { useMemo } from 'react';
import { translatePhrase, useLanguage } from '../../lib/i18n.tsx';
import { pathLabels } from '../route-table.tsx';

/** Path -> label in the current language. */
export function usePathLabels(): Record<string, string> {
  const { language, catalog } = useLanguage();
  // biome-ignore lint/correctness/useExhaustiveDependencies: catalog grows when namespaces load
  return useMemo(() => {
    const out: Record<string, string> = {};
    for (const [path, ref] of Object.entries(pathLabels())) {
      out[path] = translatePhrase(language, ref);
    }
    return out;
  }, [language, catalog]);
}
