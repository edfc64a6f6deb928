import type { Access } from '@sac/contract/endpoints';
import { createContext, type ReactNode, useContext } from 'react';
import { Link } from 'react-router';

/** Whether a viewer holding `permissions` may open a route that needs `access`. */
export const holdsAccess = (access: Access, permissions: ReadonlySet<string>): boolean =>
  access === 'public' || access === 'session' || permissions.has(access);

/**
 * "May the viewer open this address?", answered by the app from its route table (app/navigation.ts)
 * and handed to the features through this context: a feature links only where the viewer may go,
 * without a copy of the table. Outside the shell every address may be opened.
 */
const MayOpenContext = createContext<(to: string) => boolean>(() => true);
export const MayOpenProvider = MayOpenContext.Provider;
const useMayOpen = () => useContext(MayOpenContext);

/** A link when the viewer may open `to`; otherwise its text alone (never a way to "no permission"). */
export function PermittedLink({
  to,
  className,
  children,
  ...rest
}: {
  to: string;
  className?: string;
  'aria-label'?: string;
  children: ReactNode;
}) {
  const mayOpen = useMayOpen();
  if (!mayOpen(to)) return <span className={className}>{children}</span>;
  return (
    <Link to={to} className={className} {...rest}>
      {children}
    </Link>
  );
}
