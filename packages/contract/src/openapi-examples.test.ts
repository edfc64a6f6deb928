import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpointExamples, exampleOf } from './openapi-examples.ts';

const json = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;

describe('exampleOf', () => {
  it('fills every property, optional ones too, with values the schema accepts', () => {
    const schema = z.object({
      Email: z.string(),
      CreatedDate: z.string(),
      Count: z.number().int().min(3),
      Tags: z.array(z.string()).min(2),
      Note: z.string().min(12).optional(),
      Kind: z.enum(['a', 'b']),
      Fixed: z.literal('x'),
      Limit: z.number().default(50),
      Maybe: z.string().nullable(),
      Id: z.string().regex(/^[a-z]+$/),
    });
    const example = exampleOf(json(schema));
    expect(example).toEqual({
      Email: 'ada@example.com',
      CreatedDate: '2026-01-15T09:30:00.000Z',
      Count: 3,
      Tags: ['example', 'example'],
      Note: 'examplexxxxx',
      Kind: 'a',
      Fixed: 'x',
      Limit: 50,
      Maybe: 'example',
      Id: 'example',
    });
    expect(schema.safeParse(example).success).toBe(true);
  });

  it('takes the first variant of a union', () => {
    const schema = z.discriminatedUnion('Source', [
      z.object({ Source: z.literal('copy'), FromAppId: z.number().int().positive() }),
      z.object({ Source: z.literal('global'), Server: z.string() }),
    ]);
    expect(exampleOf(json(schema))).toEqual({ Source: 'copy', FromAppId: 1 });
  });
});

describe('endpointExamples', () => {
  it('patches what the JSON Schema cannot say, and removes fields patched to undefined', () => {
    const body = json(z.object({ FeatureSet: z.string().optional(), FromAppId: z.number().optional() }));
    expect(endpointExamples('updateSiteFeatures', { body }).body).toEqual({
      FeatureSet: 'Developer Premium',
    });
    expect(endpointExamples('anyOther', { body }).body).toEqual({ FeatureSet: 'example', FromAppId: 1 });
  });

  it('answers no body example for an endpoint without a body', () => {
    const examples = endpointExamples('session', { response: json(z.object({ Name: z.string() })) });
    expect(examples).toEqual({ response: { Name: 'Ada Lovelace' } });
  });
});
