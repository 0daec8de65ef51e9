import { z } from 'zod';
import { pageLimit, storableText } from '../verify/schemas';
import { WEBHOOK_EVENTS } from './events';

/** The public API's webhook endpoints (/api/v1/webhook_endpoints): Stripe-like, snake_case like the rest of v1. */

const endpointId = z.string().min(1).max(40).meta({ description: 'A webhook endpoint id.', example: 'wh_3kTq8ZpL0aX2mN7vR4sY' });
const deliveryId = z.string().min(1).max(40).meta({ description: 'A delivery id: the `webhook-id` header your endpoint received.', example: 'msg_2Vx8LkP0qR7tZ1aB9cDe' });
const url = storableText()
  .min(1)
  .max(2048)
  .meta({ description: 'Where events are POSTed: a public http(s) address (https in production); private and local addresses are refused.', example: 'https://example.com/hooks/sixdigit' });
const events = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .max(10)
  .meta({ description: 'The events sent to this endpoint (duplicates are ignored). test.ping is sent on request only.', example: ['verification.success', 'verification.failed'] });
const description = storableText().max(500).meta({ description: 'Your note on what the endpoint is for (up to 500 characters).', example: 'Production login service' });

export const EndpointParams = z.object({ id: endpointId });

export const CreateEndpointBody = z.object({ url, events, description: description.optional() }).strict();

export const UpdateEndpointBody = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: description.nullable().optional().meta({ description: 'Your note on what the endpoint is for (up to 500 characters); null clears it.' }),
    is_active: z.boolean().optional().meta({ description: 'false pauses deliveries; true resumes them and clears a disabled_reason.' }),
  })
  .strict();

export const ListEndpointsQuery = z
  .object({ limit: pageLimit, starting_after: endpointId.optional().meta({ description: 'The last id of the previous page.' }) })
  .strict();

export const ListDeliveriesQuery = z
  .object({ limit: pageLimit, starting_after: deliveryId.optional().meta({ description: 'The last delivery id of the previous page.' }) })
  .strict();

export const EndpointObject = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string().nullable(),
  is_active: z.boolean().meta({ description: 'Whether events are sent to it now.' }),
  disabled_reason: z.string().nullable().meta({ description: 'Why Sixdigit switched it off (it answered 410 Gone, or failed every attempt for a day); null otherwise.' }),
  disabled_at: z.string().nullable().meta({ description: 'When Sixdigit switched it off; null when on or paused by you.' }),
  created_at: z.string(),
  last_triggered_at: z.string().nullable().meta({ description: 'The last delivery attempt to it, or null.' }),
  livemode: z.boolean().meta({ description: 'false: a test endpoint (made with a test key), sent only test events; true: live.' }),
});

export const CreatedEndpoint = EndpointObject.extend({
  secret: z.string().meta({
    description: 'The whsec_… signing secret (Standard Webhooks). Shown only in this answer; Sixdigit stores it encrypted and never returns it again.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  }),
});

export const EndpointList = z.object({
  data: z.array(EndpointObject).meta({ description: 'Newest first.' }),
  has_more: z.boolean().meta({ description: 'More follow: ask again with starting_after set to the last id.' }),
});

export const TestEventQueued = z.object({
  queued: z.literal(true),
  delivery_id: z.string().meta({ description: 'The delivery: the `webhook-id` header the endpoint receives, and an id in GET …/deliveries.' }),
});

export const DeliveryObject = z.object({
  id: z.string().meta({ description: 'The `webhook-id` header: the same on every attempt of this delivery.' }),
  type: z.string().meta({ description: 'The event.' }),
  status: z.enum(['pending', 'delivering', 'succeeded', 'exhausted', 'cancelled']).meta({
    description: 'pending (queued or waiting to retry), delivering, succeeded (a 2xx), exhausted (every retry failed), cancelled (the endpoint was switched off).',
  }),
  verification_id: z.string().nullable(),
  attempt_count: z.number().int(),
  next_attempt_at: z.string().nullable().meta({ description: 'When it is tried next; null unless pending.' }),
  created_at: z.string(),
  attempts: z
    .array(
      z.object({
        attempt_number: z.number().int(),
        status_code: z.number().int().nullable().meta({ description: 'Your endpoint’s HTTP status; null when no answer came (see error).' }),
        error: z.string().nullable(),
        response_time_ms: z.number().nullable(),
        created_at: z.string(),
      }),
    )
    .meta({ description: 'Every attempt so far, oldest first.' }),
});

export const DeliveryList = z.object({
  data: z.array(DeliveryObject).meta({ description: 'Newest first.' }),
  has_more: z.boolean().meta({ description: 'More follow: ask again with starting_after set to the last id.' }),
});
