import { z } from 'zod';

/** One problem with a request's input: where (`loc`), what (`msg`), its kind (`type`); 422 lists them. */
export const ValidationError = z
  .object({
    loc: z.array(z.union([z.string(), z.number().int()])),
    msg: z.string(),
    type: z.string(),
  })
  .meta({ id: 'ValidationError' });
export type ValidationError = z.infer<typeof ValidationError>;

export const HTTPValidationError = z
  .object({ detail: z.array(ValidationError) })
  .meta({ id: 'HTTPValidationError' });
export type HTTPValidationError = z.infer<typeof HTTPValidationError>;

/** Every other error is a JSON object with a string `detail`. */
export const ErrorBody = z
  .object({ detail: z.string().meta({ description: 'What went wrong, in one sentence.' }) })
  .meta({ id: 'ErrorBody' });
export type ErrorBody = z.infer<typeof ErrorBody>;
