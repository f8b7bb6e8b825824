// Vocabulary of the benchmark data set (bench/data.ts): product lines, name parts, description
// sentences, campaign themes and the syllables of made-up model and brand names. Lists that are
// drawn with a Zipf weighting are ordered most frequent first, so some words end up in a large
// share of the products and others in a handful.

export interface ProductLine {
  key: string;
  segment: string;
  /** Brand categories of brands selling this line (most general first). */
  categories: readonly string[];
  /** Product nouns; their position gives the numeric category id used in order items. */
  nouns: readonly string[];
  /** Option (variant) labels; 1 to 3 consecutive ones per product. */
  variants: readonly string[];
  /** Price range of the first option, in cents. */
  price: readonly [number, number];
  /** Price increase per further option, as a fraction of the first (0 for sizes and colours). */
  variantStep: number;
  /** One of these sentences describes each product of the line. */
  blurbs: readonly string[];
}

export const LINES: readonly ProductLine[] = [
  {
    key: 'footwear',
    segment: 'Footwear',
    categories: ['Shoes', 'Fashion'],
    nouns: ['Running Sneakers', 'Trail Sneakers', 'Canvas Sneakers', 'Leather Boots', 'Hiking Boots', 'Slip-on Loafers', 'Sport Sandals', 'Ankle Boots'],
    variants: ['Size 37', 'Size 38', 'Size 39', 'Size 40', 'Size 41', 'Size 42', 'Size 43', 'Size 44', 'Size 45'],
    price: [4_900, 29_900],
    variantStep: 0,
    blurbs: ['Cushioned sole, breathable upper and a fit made for all-day comfort.', 'Grippy rubber outsole and a padded collar for long walks.'],
  },
  {
    key: 'apparel',
    segment: 'Fashion',
    categories: ['Fashion', 'Clothing'],
    nouns: ['Cotton T-Shirt', 'Denim Jacket', 'Fleece Hoodie', 'Chino Trousers', 'Linen Shirt', 'Rain Jacket', 'Wool Sweater', 'Summer Dress'],
    variants: ['Size XS', 'Size S', 'Size M', 'Size L', 'Size XL', 'Size XXL'],
    price: [1_900, 24_900],
    variantStep: 0,
    blurbs: ['Soft fabrics, easy care and a relaxed everyday fit.', 'Cut from organic cotton and finished with reinforced seams.'],
  },
  {
    key: 'audio',
    segment: 'Electronics',
    categories: ['Electronics', 'Audio'],
    nouns: ['Wireless Headphones', 'Noise-Cancelling Headphones', 'Studio Headphones', 'True Wireless Earbuds', 'Bluetooth Speaker', 'Soundbar', 'Turntable'],
    variants: ['Black', 'White', 'Midnight Blue'],
    price: [2_900, 59_900],
    variantStep: 0,
    blurbs: ['Rich bass, clear highs and long battery life for music on the go.', 'Hi-res audio with a low-latency mode for films and games.'],
  },
  {
    key: 'electronics',
    segment: 'Electronics',
    categories: ['Electronics', 'Computers'],
    nouns: ['Smartwatch', 'USB-C Hub', 'Laptop Stand', '4K Monitor', 'Mechanical Keyboard', 'Wireless Mouse', 'Portable Charger', 'Webcam'],
    variants: ['Standard', 'Plus', 'Max'],
    price: [1_900, 149_900],
    variantStep: 0.25,
    blurbs: ['Reliable hardware with a two-year warranty and free firmware updates.', 'Plug and play on Windows, macOS and Linux.'],
  },
  {
    key: 'coffee',
    segment: 'Food & Drink',
    categories: ['Coffee', 'Grocery'],
    nouns: ['Espresso Coffee Beans', 'Ground Coffee', 'Cold Brew Coffee', 'Decaf Coffee Beans', 'Café Crème Blend', 'Coffee Grinder', 'French Press'],
    variants: ['250 g', '500 g', '1 kg'],
    price: [1_290, 4_990],
    variantStep: 0.8,
    blurbs: ['Freshly roasted coffee, packed within 48 hours of roasting.', 'Notes of chocolate, caramel and toasted almond.'],
  },
  {
    key: 'home',
    segment: 'Home & Living',
    categories: ['Home', 'Decor'],
    nouns: ['Ceramic Mug', 'Throw Pillow', 'Scented Candle', 'Bath Towel Set', 'Table Lamp', 'Cast Iron Skillet', 'Wool Blanket', 'Linen Duvet Cover'],
    variants: ['Sand', 'Charcoal', 'Sage', 'Terracotta'],
    price: [990, 19_900],
    variantStep: 0,
    blurbs: ['Thoughtfully designed pieces that make a house feel like home.', 'Handmade in small batches by independent makers.'],
  },
  {
    key: 'beauty',
    segment: 'Beauty',
    categories: ['Beauty', 'Skincare'],
    nouns: ['Vitamin C Face Serum', 'Moisturizing Cream', 'Repair Shampoo', 'Tinted Lip Balm', 'Sunscreen SPF 50', 'Eau de Parfum', 'Crème Hydratante'],
    variants: ['30 ml', '50 ml', '100 ml'],
    price: [1_490, 14_900],
    variantStep: 0.6,
    blurbs: ['Dermatologically tested, cruelty-free skincare and beauty essentials.', 'Fragrance-free formula suited to sensitive skin.'],
  },
  {
    key: 'sports',
    segment: 'Sports',
    categories: ['Sports', 'Fitness'],
    nouns: ['Yoga Mat', 'Adjustable Dumbbell Set', 'Cycling Helmet', 'Running Shorts', 'Insulated Water Bottle', 'Tennis Racket', 'Resistance Bands', 'Foam Roller'],
    variants: ['Standard', 'Pro'],
    price: [1_500, 39_900],
    variantStep: 0.35,
    blurbs: ['Gear tested by athletes for training, racing and recovery.', 'Lightweight, durable and easy to carry to the gym.'],
  },
  {
    key: 'books',
    segment: 'Books',
    categories: ['Books'],
    nouns: ['Cookbook', 'Mystery Novel', 'Travel Guide', 'Picture Book', 'Science Fiction Novel', 'Biography', 'Poetry Collection'],
    variants: ['Paperback', 'Hardcover', 'E-book'],
    price: [990, 4_990],
    variantStep: 0.3,
    blurbs: ['Bestselling titles, shipped the same day from our own warehouse.', 'A new edition with a foreword by the author.'],
  },
  {
    key: 'toys',
    segment: 'Toys & Kids',
    categories: ['Toys', 'Kids'],
    nouns: ['Building Blocks Set', '1000-Piece Puzzle', 'Plush Teddy Bear', 'Family Board Game', 'Remote Control Car', 'Wooden Train Set', 'Piñata'],
    variants: ['Ages 3+', 'Ages 6+', 'Ages 8+'],
    price: [1_290, 14_900],
    variantStep: 0.2,
    blurbs: ['Safety-tested toys that spark imagination and hours of play.', 'Made from sustainably sourced wood and water-based paints.'],
  },
  {
    key: 'pets',
    segment: 'Pets',
    categories: ['Pets'],
    nouns: ['Grain-Free Dog Food', 'Clumping Cat Litter', 'Reflective Dog Leash', 'Cat Scratching Post', 'Orthopedic Pet Bed', 'Dental Dog Treats'],
    variants: ['Small', 'Medium', 'Large'],
    price: [990, 19_900],
    variantStep: 0.4,
    blurbs: ['Vet-approved food and accessories for happy, healthy pets.', 'Tough enough for puppies, gentle enough for seniors.'],
  },
  {
    key: 'garden',
    segment: 'Home & Garden',
    categories: ['Garden', 'Outdoor'],
    nouns: ['Expandable Garden Hose', 'Pruning Shears', 'Terracotta Plant Pot', 'Herb Seed Kit', 'Solar Garden Lights', 'Raised Garden Bed'],
    variants: ['Small', 'Medium', 'Large'],
    price: [990, 34_900],
    variantStep: 0.5,
    blurbs: ['Durable tools and planters for balconies, patios and backyards.', 'Weatherproof materials that last season after season.'],
  },
  {
    key: 'gaming',
    segment: 'Gaming',
    categories: ['Gaming', 'Electronics'],
    nouns: ['Gaming Headset', 'Gaming Mouse', 'Wireless Controller', 'Ergonomic Gaming Chair', 'RGB Mouse Pad', 'Capture Card'],
    variants: ['Black', 'White', 'Red Edition'],
    price: [1_990, 59_900],
    variantStep: 0.1,
    blurbs: ['Low-latency gear built for competitive play and long sessions.', 'Customisable buttons and lighting through a free app.'],
  },
  {
    key: 'jewelry',
    segment: 'Jewelry',
    categories: ['Jewelry', 'Accessories'],
    nouns: ['Silver Necklace', 'Gold Hoop Earrings', 'Leather Strap Watch', 'Charm Bracelet', 'Signet Ring'],
    variants: ['Sterling Silver', '18k Gold Plated', 'Rose Gold'],
    price: [2_900, 89_900],
    variantStep: 0.3,
    blurbs: ['Hand-finished jewelry with a lifetime polishing service.', 'Nickel-free and hypoallergenic, gift-wrapped on request.'],
  },
  {
    key: 'travel',
    segment: 'Travel',
    categories: ['Travel', 'Bags'],
    nouns: ['Carry-on Suitcase', 'Travel Backpack', 'Memory Foam Neck Pillow', 'Packing Cubes', 'Weekender Duffel Bag'],
    variants: ['Graphite', 'Navy', 'Olive'],
    price: [1_490, 49_900],
    variantStep: 0,
    blurbs: ['Lightweight luggage and accessories for every kind of trip.', 'Water-resistant shell with lockable zips.'],
  },
  {
    key: 'grocery',
    segment: 'Food & Drink',
    categories: ['Grocery', 'Gourmet'],
    nouns: ['Extra Virgin Olive Oil', 'Dark Chocolate Bar', 'Artisan Pasta', 'Honey Granola', 'Wildflower Honey', 'Green Tea', 'Crème Brûlée Mix'],
    variants: ['Single', 'Pack of 3', 'Pack of 6'],
    price: [390, 2_990],
    variantStep: 1.8,
    blurbs: ['Small-batch pantry staples sourced directly from producers.', 'Organic ingredients, no additives, no palm oil.'],
  },
  {
    key: 'furniture',
    segment: 'Home & Living',
    categories: ['Home', 'Furniture'],
    nouns: ['Oak Dining Table', 'Velvet Armchair', 'Bookshelf', 'Standing Desk', 'Bedside Table', 'Three-Seat Sofa'],
    variants: ['Natural', 'Walnut', 'White'],
    price: [9_900, 299_900],
    variantStep: 0.15,
    blurbs: ['Solid wood furniture assembled in minutes with no tools.', 'Free delivery to the room of your choice.'],
  },
];

/** Leading adjectives of product names, most frequent first. */
export const ADJECTIVES = [
  'Classic', 'Essential', 'Premium', 'Everyday', 'Urban', 'Eco', 'Pro', 'Signature', 'Vintage', 'Compact',
  'Deluxe', 'Ultralight', 'Heritage', 'Nordic', 'Artisan', 'Limited', 'Modern', 'Rustic', 'Original', 'Iconic',
] as const;

/** Colour words used in about half of the names, most frequent first ("Crème" and "Écru" fold to ASCII). */
export const COLOURS = [
  'Black', 'White', 'Navy', 'Grey', 'Beige', 'Olive', 'Burgundy', 'Forest Green', 'Sky Blue', 'Coral',
  'Mustard', 'Lavender', 'Crème', 'Écru', 'Teal', 'Copper',
] as const;

/** Extra description sentences, most frequent first. */
export const FEATURES = [
  'Free shipping on orders over 50.',
  'Backed by a two-year warranty.',
  'Ships within 24 hours.',
  'Made from recycled materials.',
  'Designed in Lisbon and made in Portugal.',
  'Rated 4.8 out of 5 by our customers.',
  'Gift wrapping available at checkout.',
  'Limited stock: order soon.',
  'Packaging is plastic-free and fully recyclable.',
  'Available in several sizes and colours.',
  'Certified carbon neutral delivery.',
  'Each piece is inspected by hand before it ships.',
  'Winner of the 2025 design award.',
  'Machine washable at 30 degrees.',
  'Compatible with the rest of the collection.',
  'Assembled in our workshop in Porto.',
  'Exclusive to our online store.',
  'Part of our capsule collection.',
  'Ten percent of profits go to reforestation.',
  'Includes a reusable storage pouch.',
  'Developed with professional chefs.',
  'Tested in the Swiss Alps.',
  'Now with a longer-lasting battery.',
  'Vegan and gluten-free.',
] as const;

export const CAMPAIGN_THEMES = [
  'Summer Sale', 'Black Friday', 'Back to School', 'Welcome Offer', 'Free Shipping Week', 'Spring Collection',
  'Holiday Gifts', 'Flash Sale', 'Loyalty Bonus', 'New Arrivals', 'Cyber Monday', 'Mid-Season Sale',
  "Mother's Day", 'Clearance', 'Anniversary Week', 'Weekend Deals',
] as const;

export const BRAND_SUFFIXES = [
  'Co', 'Outfitters', 'Studio', 'Supply', 'Goods', 'Lab', 'House', 'Collective', 'Works', 'Store',
  'Market', 'Atelier', 'Brothers', '& Sons', 'Company', 'Trading', 'Essentials', 'Club', 'Maison', 'Shop',
] as const;

export const PLATFORMS = ['vtex', 'shopify', 'magento', 'woocommerce', 'nuvemshop'] as const;

/** Syllables of made-up words: model names ("Kavoru") and brand names. 64 of them. */
export const SYLLABLES = [
  'ka', 'ko', 'ki', 'ku', 'ra', 'ro', 'ri', 'ru', 'la', 'lo', 'li', 'lu', 'ma', 'mo', 'mi', 'mu',
  'na', 'no', 'ni', 'nu', 'ta', 'to', 'ti', 'tu', 'sa', 'so', 'si', 'su', 'va', 'vo', 'vi', 'vu',
  'za', 'zo', 'zi', 'zu', 'da', 'do', 'di', 'du', 'be', 'bo', 'fe', 'fo', 'ge', 'go', 'he', 'ho',
  'pe', 'po', 'te', 'xe', 'ne', 'le', 'ren', 'lan', 'tor', 'vin', 'mar', 'dex', 'sol', 'kel', 'bri', 'quo',
] as const;

/** Prefix of the mdasc (sub-id) tags an affiliate puts on links of each channel kind. */
export const MDASC_PREFIX: Record<string, string> = {
  site: 'blog',
  instagram: 'ig-story',
  whatsapp: 'wa-group',
  youtube: 'yt-review',
  email: 'newsletter',
  tiktok: 'tt-video',
  telegram: 'tg-post',
};
