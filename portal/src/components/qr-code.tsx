import qrcode from 'qrcode-generator';
import { useMemo } from 'preact/hooks';

/** A QR code of `text`, as an image (a data URL: nothing leaves the page). */
export function QrCode({ text, label }: { text: string; label: string }) {
  const src = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    return qr.createDataURL(4, 8);
  }, [text]);
  return <img class="qr" src={src} alt={label} width={132} height={132} />;
}
