// The files around the container image that no engine runs here: the compose example (no compose
// tool on these machines) and the Containerfile's promises that npm run test:container relies on.
// They are read as data, so a setting renamed in mock/config.ts or a replica added to compose.yaml
// without the proxy fails here rather than for a user.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { load } from 'js-yaml';
import { configFrom, SETTINGS } from '../../mock/config';
import { projectPath } from '../../spec/project-root';

interface Service {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
}

const compose = load(readFileSync(projectPath('examples', 'compose.yaml'), 'utf8')) as { services: Record<string, Service> };
const nginx = readFileSync(projectPath('examples', 'nginx.conf'), 'utf8');
const containerfile = readFileSync(projectPath('Containerfile'), 'utf8');
const replicas = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

describe('the compose example (examples/compose.yaml)', () => {
  it('builds two replicas from the Containerfile at the top of the repository', () => {
    expect(replicas.map(([name]) => name)).toEqual(['mock-1', 'mock-2']);
    for (const [, service] of replicas) expect(service.build).toEqual({ context: '..', dockerfile: 'Containerfile' });
  });

  it('gives the replicas only settings the mock knows, with values it accepts, on one Redis', () => {
    const known = new Set(SETTINGS.map((s) => s.env));
    for (const [, service] of replicas) {
      const env = service.environment ?? {};
      expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
      const config = configFrom(env);
      expect(config.redisUrl).toBe('redis://redis:6379');
      expect(config.allowedHosts).toEqual(['mock', 'mock-1', 'mock-2']);
    }
    expect(compose.services.redis?.image).toMatch(/redis/);
  });

  it('sends every request through a proxy to each replica in turn, on the port the image exposes', () => {
    const upstream = [...nginx.matchAll(/^\s*server\s+([\w-]+):(\d+);/gm)].map((m) => `${m[1]}:${m[2]}`);
    const exposed = /^EXPOSE (\d+)$/m.exec(containerfile)?.[1];
    expect(upstream).toEqual(replicas.map(([name]) => `${name}:${exposed}`));
    expect(compose.services.mock?.ports).toEqual([`${exposed}:${exposed}`]);
    expect(compose.services.mock?.volumes).toEqual(['./nginx.conf:/etc/nginx/conf.d/default.conf:ro']);
  });
});

describe('the Containerfile', () => {
  it('listens beyond the container, runs as the user node, and checks /_mock/health on the port it listens on', () => {
    expect(containerfile).toMatch(/^ENV NODE_ENV=production \\\n\s+HOST=0\.0\.0\.0 \\\n\s+PORT=4010$/m);
    expect(containerfile).toMatch(/^USER node$/m);
    expect(containerfile).toMatch(/^EXPOSE 4010$/m);
    expect(containerfile).toMatch(/^HEALTHCHECK .*\n\s+CMD \["node", "-e", ".*process\.env\.PORT.*\/_mock\/health/m);
  });

  it('builds on a Node LTS slim image the package supports', () => {
    const image = /^ARG NODE_IMAGE=docker\.io\/library\/node:(\d+)-slim$/m.exec(containerfile);
    expect(image).not.toBeNull();
    const major = Number(image![1]);
    const engines = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(major % 2).toBe(0); // even majors are the LTS lines
    expect(major).toBeGreaterThanOrEqual(Number(/\d+/.exec(engines)![0]));
  });
});
