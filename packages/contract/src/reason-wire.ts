import { z } from 'zod';

/**
 * The four fields every place that shows a request's reason answers (null on older requests),
 * apart from access-reasons.ts: the session's grant, read before the console's first screen, needs
 * these and none of the list's rules, which stay in a chunk of their own.
 */
export const reasonWireShape = {
  ReasonCode: z.string().nullable(),
  ReasonLabel: z.string().nullable(),
  CaseReference: z.string().nullable(),
  CaseUrl: z.string().nullable(),
};
