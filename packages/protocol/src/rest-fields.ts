/** Field shapes the REST schemas share. */
import { Type, type TSchema } from 'typebox';

export const Cents = (description: string) => Type.Integer({ description: `${description} (integer cents)` });
export const IsoDate = (description: string) => Type.String({ format: 'date-time', description });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
