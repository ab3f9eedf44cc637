// Breaks of cursors, tokens and webhooks: a cursor codec that does not check its MAC and a token
// check that does not check signatures (swapped into the running mock), another token lifetime
// (config), webhook deliveries without a header or a payload field (createApp's `deliver`).
import { randomUUID } from 'node:crypto';
import { CursorCodec, type CursorPosition } from '../../../mock/domain/pagination/cursor';
import { httpDelivery } from '../../../mock/webhooks/deliver';
import type { Break } from './break';

/** A codec that reads the position from a cursor and never checks its MAC (nor which list it came from). */
class TrustingCodec extends CursorCodec {
  override decode(list: string, cursor: string): CursorPosition {
    const [payload] = cursor.split('.');
    const [key, direction, order] = Buffer.from(payload ?? '', 'base64url')
      .toString()
      .split('.');
    const parsed = Number(key);
    if (!Number.isSafeInteger(parsed) || !['N', 'P'].includes(direction ?? '') || !['A', 'D'].includes(order ?? ''))
      return super.decode(list, cursor);
    return { key: parsed, direction: direction === 'N' ? 'NEXT' : 'PREVIOUS', order: order === 'A' ? 'ASCENDING' : 'DESCENDING' };
  }
}

export const cursorNotVerified: Break = {
  id: 'cursor-not-verified',
  rules: ['PAGE-CURSOR-SIGNED'],
  what: 'cursors are not signed-checked: an edited or borrowed cursor is accepted',
  files: ['pagination'],
  after: (mock) => void (mock.deps.codec = new TrustingCodec(mock.deps.config.secret)),
};

export const signatureNotChecked: Break = {
  id: 'signature-not-checked',
  rules: ['AUTH-REQUIRED-401'],
  what: 'a bearer token is accepted without checking its signature or expiry',
  files: ['auth'],
  after: (mock) => {
    const tokens = mock.services.tokens;
    const verify = tokens.verify.bind(tokens);
    tokens.verify = async (authorization: string | undefined) => {
      try {
        return await verify(authorization);
      } catch (error) {
        const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
        try {
          const { sub } = JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString()) as { sub?: unknown };
          const customer = await mock.deps.store.get('customer', String(sub));
          if (customer && !customer.deleted) return customer.id;
        } catch {
          // not even a JWT: refused as before
        }
        throw error;
      }
    };
  },
};

export const tokenLifetime3600: Break = {
  id: 'token-lifetime-3600',
  rules: ['AUTH-TOKEN-LIFETIME'],
  what: 'tokens live 3600 s (expiresIn 3600, not 82800)',
  files: ['auth'],
  options: () => ({ config: { tokenLifetimeSeconds: 3600 } }),
};

export const webhookNoEventType: Break = {
  id: 'webhook-no-event-type',
  rules: ['HOOK-DELIVERY'],
  what: 'webhook deliveries without X-Event-Type',
  files: ['webhooks', 'webhooks-logs'],
  options: () => {
    const real = httpDelivery();
    return {
      deliver: (d) => {
        const headers = { ...d.headers };
        delete headers['x-event-type'];
        return real.send({ ...d, headers });
      },
    };
  },
};

export const webhookNoAtTime: Break = {
  id: 'webhook-no-attime',
  rules: ['HOOK-PAYLOAD'],
  what: 'webhook payloads without atTime',
  files: ['webhooks', 'webhooks-logs'],
  options: () => {
    const real = httpDelivery();
    return {
      deliver: (d) => {
        const payload = JSON.parse(d.body) as Record<string, unknown>;
        delete payload.atTime;
        return real.send({ ...d, body: JSON.stringify(payload) });
      },
    };
  },
};

export const messageIdPerAttempt: Break = {
  id: 'message-id-per-attempt',
  rules: ['HOOK-MESSAGE-ID-STABLE'],
  what: 'each delivery attempt carries a fresh X-Message-Id (retries and resends cannot be deduplicated)',
  files: ['webhooks', 'webhooks-logs'],
  options: () => {
    const real = httpDelivery();
    return { deliver: (d) => real.send({ ...d, headers: { ...d.headers, 'x-message-id': randomUUID() } }) };
  },
};

export const completedNotDelivered: Break = {
  id: 'completed-not-delivered',
  rules: ['HOOK-EVENT-SELECTION'],
  what: 'OPERATION_COMPLETED events are logged as delivered but never sent',
  files: ['webhooks'],
  options: () => {
    const real = httpDelivery();
    return {
      deliver: (d) =>
        d.headers['x-event-type'] === 'OPERATION_COMPLETED' ? Promise.resolve({ ok: true, httpStatus: 200, error: null }) : real.send(d),
    };
  },
};

export const retriesOff: Break = {
  id: 'retries-off',
  rules: ['HOOK-RETRY'],
  what: 'failed deliveries are never retried, allowRetry or not (an empty retry schedule)',
  files: ['webhooks'],
  options: () => ({ config: { retryScheduleMs: [] } }),
};
