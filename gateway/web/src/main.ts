/**
 * The explorer's one script: the server says which page this is (`data-page`) and whether the reader
 * holds a subscriber session (`data-access`); everything shown is read from the public API.
 */
import './styles.css';
import { h, replaceChildren } from './dom.js';
import { renderSubnetPage } from './subnet-page.js';
import { renderSubnetsPage } from './subnets-page.js';
import { renderTaxPage } from './tax-page.js';

async function start(): Promise<void> {
  const app = document.getElementById('app');
  if (!app) return;
  const { page, access, netuid } = document.body.dataset;
  try {
    if (page === 'subnets') await renderSubnetsPage(app);
    else if (page === 'subnet') await renderSubnetPage(app, Number(netuid), access === 'subscriber');
    else if (page === 'tax') renderTaxPage(app);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    replaceChildren(
      app,
      h('p', { class: 'error', role: 'alert' }, `This page could not load its data: ${detail}`),
    );
  }
}

void start();
