/**
 * What a lost write or a restore does to the state, done with the engines' own drivers on the file or
 * schema the gateway uses: an order row (and its payment events) gone.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { parseStateUrl } from '../../../gateway/state/state-url.js';

export async function deleteOrderRow(stateUrl: string, orderId: string): Promise<void> {
  const location = parseStateUrl(stateUrl);
  if (location.engine === 'sqlite') {
    const db = new Database(location.path);
    try {
      db.prepare('DELETE FROM payment_events WHERE order_id = ?').run(orderId);
      db.prepare('DELETE FROM orders WHERE id = ?').run(orderId);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    await client.query('DELETE FROM payment_events WHERE order_id = $1', [orderId]);
    await client.query('DELETE FROM orders WHERE id = $1', [orderId]);
  } finally {
    await client.end();
  }
}
