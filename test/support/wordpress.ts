import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports";
import { waitFor } from "./wait";

const run = promisify(execFile);

/**
 * A real WordPress (Debian's 6.1 package files, unpacked by test/support/ensure-wordpress.sh) under
 * PHP's built-in server on a free loopback port, with MariaDB on a private data dir and socket.
 * Installed through WordPress's own functions (wp_install) by a small PHP script, which also
 * creates an application password; `WP_ENVIRONMENT_TYPE` is `local` so application passwords work
 * over http. Pretty permalinks are on, so `/wp-json/` routes through index.php (a router script
 * plays the part of the rewrite rules).
 */

export const WORDPRESS_CACHE_DIR =
  process.env.WORDPRESS_CACHE_DIR ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "article-platform", "wordpress");
const WORDPRESS_FILES = path.join(WORDPRESS_CACHE_DIR, "usr", "share", "wordpress");
const MARIADBD = ["/usr/sbin/mariadbd", "/usr/sbin/mysqld"].find((p) => fs.existsSync(p));

export interface RealWordPress {
  url: string;
  username: string;
  applicationPassword: string;
  /** How long the start took, from nothing to a site answering its REST API. */
  startMs: number;
  /** GET through WordPress's own REST API with the application password. */
  get(pathAndQuery: string): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

export function wordpressAvailable(): boolean {
  return fs.existsSync(path.join(WORDPRESS_FILES, "wp-includes", "version.php")) && MARIADBD !== undefined && fs.existsSync("/usr/bin/php");
}

/** Ends a child started in its own process group (PHP's server forks workers) and waits until its pipes close. */
function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.pid === undefined || (child.exitCode !== null && child.stdout?.readableEnded)) return Promise.resolve();
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      child.kill(sig);
    }
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => signal("SIGKILL"), 5000);
    child.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
    signal("SIGTERM");
  });
}

const ROUTER = `<?php
// PHP's built-in server in front of WordPress: files are served as they are, everything else goes to index.php.
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
$file = __DIR__ . $path;
if ($path !== '/' && is_file($file)) return false;
if (is_dir($file) && is_file(rtrim($file, '/') . '/index.php')) return false;
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = __DIR__ . '/index.php';
require __DIR__ . '/index.php';
`;

const wpConfig = (socket: string, url: string) => `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', 'localhost:${socket}');
define('DB_CHARSET', 'utf8mb4');
define('DB_COLLATE', '');
define('WP_HOME', '${url}');
define('WP_SITEURL', '${url}');
define('WP_ENVIRONMENT_TYPE', 'local');
define('WP_DEBUG', false);
define('DISABLE_WP_CRON', true);
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
${["AUTH_KEY", "SECURE_AUTH_KEY", "LOGGED_IN_KEY", "NONCE_KEY", "AUTH_SALT", "SECURE_AUTH_SALT", "LOGGED_IN_SALT", "NONCE_SALT"].map((k) => `define('${k}', '${k.toLowerCase()}-${Math.random().toString(36).slice(2)}');`).join("\n")}
$table_prefix = 'wp_';
if (!defined('ABSPATH')) define('ABSPATH', __DIR__ . '/');
require_once ABSPATH . 'wp-settings.php';
`;

const INSTALL = `<?php
// Installs the site and creates an application password, through WordPress's own functions.
define('WP_INSTALLING', true);
$_SERVER['HTTP_HOST'] = parse_url(getenv('WP_URL'), PHP_URL_HOST) . ':' . parse_url(getenv('WP_URL'), PHP_URL_PORT);
$_SERVER['REQUEST_URI'] = '/';
require __DIR__ . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
$result = wp_install('Platform test site', 'editor', 'editor@example.test', true, '', 'unused-' . wp_generate_password(24, false));
update_option('permalink_structure', '/%postname%/');
$user = get_user_by('login', 'editor');
list($password) = WP_Application_Passwords::create_new_application_password($user->ID, array('name' => 'article-platform'));
echo json_encode(array('user' => 'editor', 'password' => $password));
`;

/** Starts MariaDB and WordPress from nothing; `stop()` ends both and removes their files. */
export async function startRealWordPress(): Promise<RealWordPress> {
  if (!wordpressAvailable()) throw new Error("WordPress is not installed: run bash test/support/ensure-wordpress.sh");
  const started = Date.now();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "wp-e2e-"));
  const dataDir = path.join(root, "mysql");
  const socket = path.join(root, "mysql.sock");
  const docroot = path.join(root, "site");
  let mariadb: ChildProcess | undefined;
  let php: ChildProcess | undefined;
  let log = "";
  const stop = async () => {
    await stopChild(php);
    await stopChild(mariadb);
    fs.rmSync(root, { recursive: true, force: true });
  };
  try {
    const copy = run("cp", ["-a", WORDPRESS_FILES, docroot]);
    await run("mariadb-install-db", ["--no-defaults", `--datadir=${dataDir}`, "--auth-root-authentication-method=normal", "--skip-test-db", "--user=root"], { maxBuffer: 16 * 1024 * 1024 });
    mariadb = spawn(MARIADBD!, ["--no-defaults", `--datadir=${dataDir}`, `--socket=${socket}`, "--skip-networking", "--user=root", `--pid-file=${path.join(root, "mysql.pid")}`, "--innodb-buffer-pool-size=32M", "--skip-log-bin"], {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    mariadb.stdout!.on("data", (c: Buffer) => (log += c.toString()));
    mariadb.stderr!.on("data", (c: Buffer) => (log += c.toString()));
    await waitFor(async () => {
      if (mariadb!.exitCode !== null) throw new Error(`mariadbd exited: ${log.slice(-2000)}`);
      await run("mariadb", ["--no-defaults", `--socket=${socket}`, "-uroot", "-e", "CREATE DATABASE IF NOT EXISTS wordpress"]);
      return true;
    }, "MariaDB", 30000, 100);
    await copy;

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    fs.writeFileSync(path.join(docroot, "wp-config.php"), wpConfig(socket, url));
    fs.writeFileSync(path.join(docroot, "router.php"), ROUTER);
    fs.writeFileSync(path.join(docroot, "install-for-tests.php"), INSTALL);
    fs.mkdirSync(path.join(docroot, "wp-content", "uploads"), { recursive: true });
    const installed = await run("php", [path.join(docroot, "install-for-tests.php")], { cwd: docroot, env: { ...process.env, WP_URL: url } });
    const { user, password } = JSON.parse(installed.stdout.slice(installed.stdout.indexOf("{"))) as { user: string; password: string };
    fs.rmSync(path.join(docroot, "install-for-tests.php"));

    php = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", docroot, path.join(docroot, "router.php")], {
      cwd: docroot,
      env: { ...process.env, PHP_CLI_SERVER_WORKERS: "4" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    php.stdout!.on("data", (c: Buffer) => (log += c.toString()));
    php.stderr!.on("data", (c: Buffer) => (log = (log + c.toString()).slice(-20000)));
    const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    const get = async (pathAndQuery: string) => {
      const res = await fetch(url + pathAndQuery, { headers: { authorization } });
      const text = await res.text();
      let body: any;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: res.status, body };
    };
    await waitFor(async () => {
      if (php!.exitCode !== null) throw new Error(`php -S exited: ${log.slice(-2000)}`);
      const me = await get("/wp-json/wp/v2/users/me?context=edit");
      return me.status === 200 ? true : undefined;
    }, "WordPress REST API", 30000, 100);
    return { url, username: user, applicationPassword: password, startMs: Date.now() - started, get, stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- WordPress output ---\n${log.slice(-3000)}`);
  }
}
