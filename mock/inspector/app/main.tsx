// The inspector's entry point (bundled by esbuild into /_mock/inspector/app.js and app.css).
import { render } from 'preact';
import { App } from './app';
import './styles.css';

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
