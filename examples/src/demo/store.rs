//! The demo's in-memory data: a hotel catalogue, orders, bookings and refunds.

use serde_json::{Value, json};

/// A hotel in the catalogue.
#[derive(Clone, Debug)]
pub struct Hotel {
    /// Its id, like `H-101`.
    pub id: &'static str,
    /// Its name.
    pub name: &'static str,
    /// The city it is in.
    pub city: &'static str,
    /// Price per night, in euros.
    pub price: u32,
    /// Rooms still available.
    pub rooms: u32,
}

/// What happened to an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrderStatus {
    /// Paid, not shipped yet.
    Processing,
    /// On its way or delivered.
    Delivered,
    /// Cancelled by the customer.
    Cancelled,
}

/// A shop order.
#[derive(Clone, Debug)]
pub struct Order {
    /// Its id, like `ORD-9921`.
    pub id: &'static str,
    /// Total in euros.
    pub total: f64,
    /// Number of items.
    pub items: u32,
    /// Its status.
    pub status: OrderStatus,
    /// How many times the card was charged for it.
    pub charges: u32,
    /// Whether a refund was already made.
    pub refunded: bool,
}

/// The whole store.
#[derive(Clone, Debug)]
pub struct Store {
    /// The hotel catalogue.
    pub hotels: Vec<Hotel>,
    /// Orders by id.
    pub orders: Vec<Order>,
    /// Bookings made so far, as JSON records.
    pub bookings: Vec<Value>,
    /// Refunds made so far, as JSON records.
    pub refunds: Vec<Value>,
}

impl Store {
    /// The sample data the examples use.
    pub fn sample() -> Self {
        let hotel = |id, name, city, price, rooms| Hotel {
            id,
            name,
            city,
            price,
            rooms,
        };
        let order = |id, total, items, status, charges| Order {
            id,
            total,
            items,
            status,
            charges,
            refunded: false,
        };
        let mut orders = vec![
            order("ORD-9921", 42.5, 2, OrderStatus::Delivered, 2),
            order("ORD-1001", 129.99, 1, OrderStatus::Processing, 1),
            order("ORD-7777", 15.0, 3, OrderStatus::Delivered, 2),
        ];
        if let Some(o) = orders.iter_mut().find(|o| o.id == "ORD-7777") {
            o.refunded = true;
        }
        Store {
            hotels: vec![
                hotel("H-101", "Casa Azul", "Lisbon", 95, 4),
                hotel("H-102", "Alfama Lofts", "Lisbon", 140, 2),
                hotel("H-103", "Tejo Budget Inn", "Lisbon", 62, 0),
                hotel("H-201", "Hotel Retiro", "Madrid", 110, 5),
                hotel("H-202", "Sol Hostel", "Madrid", 48, 9),
                hotel("H-301", "Le Petit Marais", "Paris", 180, 1),
            ],
            orders,
            bookings: Vec::new(),
            refunds: Vec::new(),
        }
    }

    /// An order as the tools report it.
    pub fn order_json(order: &Order) -> Value {
        json!({
            "order_id": order.id,
            "total": order.total,
            "items": order.items,
            "status": match order.status {
                OrderStatus::Processing => "processing",
                OrderStatus::Delivered => "delivered",
                OrderStatus::Cancelled => "cancelled",
            },
            "charges": order.charges,
            "refunded": order.refunded,
        })
    }
}
