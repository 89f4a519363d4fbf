/** A file input that also takes a file dropped on its area (the input stays the real, labelled control). */
import { useId, useRef, useState } from 'preact/hooks';

export function DocumentDrop({ name, label, hint, required }: { name: string; label: string; hint: string; required?: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [chosen, setChosen] = useState<string | undefined>();
  return (
    <div
      class="dropzone field"
      data-over={over ? 'true' : 'false'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const files = event.dataTransfer?.files;
        if (input.current && files && files.length > 0) {
          const one = new DataTransfer();
          one.items.add(files[0]!);
          input.current.files = one.files;
          setChosen(files[0]!.name);
        }
      }}
    >
      <label for={id}>{label}</label>
      <input
        ref={input}
        id={id}
        name={name}
        type="file"
        accept="application/pdf,image/png,image/jpeg,.pdf,.png,.jpg,.jpeg"
        required={required}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setChosen((event.currentTarget as HTMLInputElement).files?.[0]?.name)}
      />
      <small id={`${id}-hint`} class="muted">
        {chosen ?? hint}
      </small>
    </div>
  );
}
