import { z } from 'zod';
import { envelopeShape } from './envelope.js';
import { SubnetRow } from './subnet-row.js';

/** The body of GET /api/v1/subnets/{netuid}. */
export const SubnetDetail = z.object({ ...envelopeShape, subnet: SubnetRow }).meta({ id: 'SubnetDetail' });
export type SubnetDetail = z.infer<typeof SubnetDetail>;
