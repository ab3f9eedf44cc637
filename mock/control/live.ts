// GET /_mock/live: the inspector's push channel, as Server-Sent Events. Each notice names the
// topics that changed (mock/events/live-feed.ts gathers them for 100 ms); the page reads what its
// view shows. A comment every 15 s keeps proxies from closing an idle stream. Streams are ended
// when the app closes, so a server can close with a page still open.
import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import type { LiveFeed, LiveTopic } from '../events/live-feed';

const KEEP_ALIVE_MS = 15_000;

export interface LiveStreams {
  handler: (req: Request, res: Response, query: Record<string, unknown>) => void;
  /** Ends every open stream. */
  close(): void;
}

export function liveStreams(feed: LiveFeed): LiveStreams {
  const open = new Set<ServerResponse>();
  return {
    handler(req, res, query) {
      // Checked by the document: a list of LiveTopic, or absent (every topic).
      const wanted = query.topics as LiveTopic[] | undefined;
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        Connection: 'keep-alive',
        // nginx and similar proxies hold a response back to buffer it unless told not to.
        'X-Accel-Buffering': 'no',
      });
      // HEAD: the headers a stream would have, and no stream.
      if (req.method === 'HEAD') {
        res.end();
        return;
      }
      // A browser whose stream dropped tries again after this long.
      res.write('retry: 2000\n\n');
      open.add(res);
      const unsubscribe = feed.subscribe((all) => {
        const topics = wanted ? all.filter((topic) => wanted.includes(topic)) : all;
        if (topics.length > 0) res.write(`event: change\ndata: ${JSON.stringify({ topics })}\n\n`);
      });
      const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref();
      // The response's close, not the request's: a request's 'close' fires once a body it carried is read.
      res.on('close', () => {
        clearInterval(keepAlive);
        unsubscribe();
        open.delete(res);
      });
    },
    close() {
      for (const res of open) res.end();
      open.clear();
    },
  };
}
