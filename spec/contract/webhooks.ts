// The payload schema of each `webhooks` entry of a document (the body its POST sends).
import { isObject, type Json, type JsonObject, type OpenApiDocument } from './document';

export function webhookSchemas(document: OpenApiDocument): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  const webhooks = isObject(document.webhooks) ? document.webhooks : {};
  for (const [event, item] of Object.entries(webhooks)) {
    const post = isObject(item) && isObject(item.post) ? item.post : undefined;
    const body = post && isObject(post.requestBody) ? post.requestBody : undefined;
    const media = body && isObject(body.content) ? (body.content['application/json'] as JsonObject | undefined) : undefined;
    if (media?.schema) out.push([event, media.schema]);
  }
  return out;
}
