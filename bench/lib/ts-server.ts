// A bench server written in TypeScript, run as `node <flags> --import tsx <script>`: one process
// whose pid is the server itself. (`node .bin/tsx` would start a wrapper that spawns the real
// node as its child, so /proc/<pid> would show the wrapper's memory, and node flags such as
// --expose-gc would reach the wrapper only.)
import { pathToFileURL } from 'node:url';
import { projectPath } from '../../spec/project-root';
import type { ServerSpec } from './processes';

export interface TsServerOptions {
  name: string;
  /** Script under bench/servers/. */
  script: string;
  args: string[];
  port: number;
  probe: ServerSpec['probe'];
  nodeFlags?: string[];
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}

export function tsServer(options: TsServerOptions): ServerSpec {
  const loader = pathToFileURL(projectPath('node_modules', 'tsx', 'dist', 'loader.mjs')).href;
  return {
    name: options.name,
    command: process.execPath,
    args: [...(options.nodeFlags ?? []), '--import', loader, projectPath('bench', 'servers', options.script), ...options.args],
    env: options.env,
    port: options.port,
    probe: options.probe,
    readyTimeoutMs: options.readyTimeoutMs,
  };
}
