/**
 * A product screenshot in a phone frame: AVIF, then WebP, then PNG for browsers that take neither.
 * `base` names files public/site/screens/{base}.{avif,webp,png}, 390×844 CSS pixels captured at 1×.
 */
export function PhonePicture({ base, alt, eager = false }: { base: string; alt: string; eager?: boolean }) {
  const src = `/site/screens/${base}`;
  return (
    <div className="phone">
      <picture>
        <source srcSet={`${src}.avif`} type="image/avif" />
        <source srcSet={`${src}.webp`} type="image/webp" />
        <img
          src={`${src}.png`}
          alt={alt}
          width={390}
          height={844}
          className="phone__screen"
          loading={eager ? "eager" : "lazy"}
          fetchPriority={eager ? "high" : "auto"}
          decoding="async"
        />
      </picture>
    </div>
  );
}
