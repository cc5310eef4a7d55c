import type { PriceHistoryCategory } from "./schema.ts";

/**
 * Words of the generated catalog. Every product name is composed from these and from invented brand
 * syllables; a median listed price per kind of product places it in the real data's price range.
 */
export interface ProductKind {
  noun: string;
  /** Median listed price in US dollars. */
  median: number;
}

/** Products in the public data set per category (930 in all): the generator's category weights. */
export const CATEGORY_WEIGHTS: Readonly<Record<PriceHistoryCategory, number>> = {
  automotive: 7,
  "baby-products": 11,
  beauty: 12,
  books: 13,
  electronics: 284,
  "health-personal-care": 2,
  "home-kitchen": 23,
  "industrial-scientific": 2,
  "movies-tv": 75,
  music: 5,
  other: 288,
  "patio-lawn-garden": 10,
  "pet-supplies": 5,
  software: 4,
  "sports-outdoors": 16,
  "tools-home-improvement": 144,
  "toys-games": 22,
  "video-games": 7,
};

const k = (noun: string, median: number): ProductKind => ({ noun, median });

export const KINDS: Readonly<Record<PriceHistoryCategory, readonly ProductKind[]>> = {
  automotive: [
    k("Dash Cam", 90),
    k("Tire Inflator", 45),
    k("Jump Starter", 110),
    k("LED Headlight Bulbs", 35),
    k("All-Weather Floor Mats", 70),
  ],
  "baby-products": [
    k("Convertible Car Seat", 250),
    k("Video Baby Monitor", 120),
    k("Travel Stroller", 300),
    k("High Chair", 130),
    k("Bottle Warmer", 35),
  ],
  beauty: [
    k("Hair Dryer", 180),
    k("Electric Toothbrush", 90),
    k("Hair Straightener", 110),
    k("Facial Cleansing Brush", 60),
    k("Eau de Parfum", 95),
  ],
  books: [
    k("Hardcover Cookbook", 30),
    k("Boxed Set", 60),
    k("Illustrated Atlas", 45),
    k("Paperback Novel", 17),
    k("Coloring Book", 12),
  ],
  electronics: [
    k("Wireless Earbuds", 130),
    k("Noise Cancelling Headphones", 300),
    k("4K Smart TV", 700),
    k("Laptop", 1100),
    k("Tablet", 450),
    k("Smartwatch", 300),
    k("Bluetooth Speaker", 110),
    k("Portable SSD", 140),
    k("Mirrorless Camera", 1500),
    k("Gaming Monitor", 400),
    k("Wi-Fi Router", 180),
    k("Soundbar", 350),
    k("USB-C Hub", 45),
    k("E-Reader", 140),
    k("Home Projector", 500),
    k("Power Bank", 50),
    k("Memory Card", 25),
  ],
  "health-personal-care": [k("Blood Pressure Monitor", 60), k("Massage Gun", 150), k("Electric Shaver", 160)],
  "home-kitchen": [
    k("Robot Vacuum", 400),
    k("Air Fryer", 130),
    k("Espresso Machine", 500),
    k("Stand Mixer", 400),
    k("Blender", 150),
    k("Cookware Set", 250),
    k("Air Purifier", 220),
  ],
  "industrial-scientific": [k("Digital Caliper", 40), k("Label Printer", 150), k("3D Printer", 400)],
  "movies-tv": [
    k("Complete Series Blu-ray", 90),
    k("4K Ultra HD Collection", 60),
    k("DVD Box Set", 40),
    k("Blu-ray Steelbook", 30),
  ],
  music: [k("Vinyl LP", 30), k("Deluxe CD Edition", 20), k("Anniversary Box Set", 120)],
  other: [
    k("Smart Thermostat", 250),
    k("Video Doorbell", 180),
    k("Gaming Chair", 300),
    k("Electric Scooter", 600),
    k("Standing Desk", 500),
    k("Security Camera Kit", 300),
    k("Mesh Wi-Fi System", 350),
    k("Smart Lock", 230),
    k("Fitness Tracker", 130),
    k("Tablet Case", 25),
    k("Electric Bike", 1600),
    k("Smart Display", 150),
    k("Streaming Stick", 50),
    k("Phone Charger", 20),
    k("Robot Lawn Mower", 1400),
  ],
  "patio-lawn-garden": [
    k("Cordless Lawn Mower", 450),
    k("Pressure Washer", 250),
    k("Patio Heater", 200),
    k("Pellet Grill", 700),
    k("Hose Reel", 60),
  ],
  "pet-supplies": [
    k("Automatic Pet Feeder", 80),
    k("GPS Pet Tracker", 120),
    k("Cat Tree", 100),
    k("Dog Crate", 90),
  ],
  software: [
    k("Antivirus 1-Year Subscription", 50),
    k("Photo Editing Suite", 100),
    k("Office Suite License", 150),
    k("Tax Software", 70),
  ],
  "sports-outdoors": [
    k("Camping Tent", 200),
    k("Smart Bike Trainer", 700),
    k("Touring Kayak", 500),
    k("Adjustable Dumbbells", 350),
    k("Trekking Poles", 60),
  ],
  "tools-home-improvement": [
    k("Cordless Drill Kit", 150),
    k("Impact Driver", 180),
    k("Circular Saw", 160),
    k("Rolling Tool Chest", 400),
    k("Laser Level", 120),
    k("Wet/Dry Shop Vacuum", 130),
    k("Power Tool Combo Kit", 450),
    k("Jobsite Table Saw", 600),
    k("Generator", 900),
  ],
  "toys-games": [
    k("Building Set", 120),
    k("Strategy Board Game", 40),
    k("Remote Control Car", 80),
    k("Wooden Dollhouse", 150),
    k("STEM Robot Kit", 100),
  ],
  "video-games": [
    k("Game Console", 500),
    k("Wireless Controller", 70),
    k("Gaming Headset", 100),
    k("Racing Wheel", 350),
  ],
};

/** Invented brand names are one of these heads and one of these tails ("Corvane", "Belltra"). */
export const BRAND_HEADS = [
  "Ar",
  "Bell",
  "Cor",
  "Dun",
  "Elk",
  "Fen",
  "Gal",
  "Hal",
  "Iso",
  "Jun",
  "Kel",
  "Lum",
  "Mor",
  "Nov",
  "Orb",
  "Pell",
  "Quin",
  "Ros",
  "Sol",
  "Tor",
  "Ulm",
  "Ven",
  "Wyn",
  "Yar",
  "Zel",
] as const;
export const BRAND_TAILS = [
  "vane",
  "tra",
  "wick",
  "ora",
  "ix",
  "ant",
  "mere",
  "ium",
  "oli",
  "ara",
  "ico",
  "eth",
] as const;

export const TITLE_QUALIFIERS = [
  "Pro",
  "Plus",
  "Max",
  "Lite",
  "Mini",
  "Ultra",
  "Essential",
  "Signature",
  "Compact",
  "Elite",
] as const;
export const COLORS = [
  "Black",
  "White",
  "Graphite",
  "Silver",
  "Navy",
  "Slate Gray",
  "Sage Green",
  "Midnight Blue",
  "Red",
  "Sand",
] as const;

export const DESCRIPTION_SENTENCES = [
  "Designed for everyday use, it sets up in minutes.",
  "A compact build keeps it easy to store and carry.",
  "Made with durable materials that hold up to daily wear.",
  "Simple controls make it easy for anyone in the family to use.",
  "An energy-efficient design helps keep running costs low.",
  "Everything you need to get started is in the box.",
  "Tested for consistent performance over thousands of hours.",
  "A quiet motor and a sturdy frame set it apart from cheaper models.",
  "Thoughtful details make it a favorite gift for the holidays.",
  "Regular firmware and content updates keep it current.",
] as const;

export const FEATURE_LINES = [
  "Backed by a 1-year limited warranty",
  "Includes a quick start guide and all mounting hardware",
  "Easy to clean, with removable parts",
  "Ships in frustration-free, recyclable packaging",
  "Compatible with most popular accessories",
  "Rated for indoor and outdoor use",
  "Lightweight at under five pounds",
  "Customer support available seven days a week",
] as const;

export const MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
] as const;
