import type { ComponentChildren } from 'preact';

/** A button for something that cannot be undone (delete, take back, replace): asks the question first, and acts only on yes. */
export function ConfirmButton({ question, onConfirm, children, ...button }: { question: string; onConfirm: () => void; children: ComponentChildren; class?: string; disabled?: boolean; 'aria-label'?: string }) {
  return (
    <button
      type="button"
      {...button}
      onClick={() => {
        if (window.confirm(question)) onConfirm();
      }}
    >
      {children}
    </button>
  );
}
