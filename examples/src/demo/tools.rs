//! The demo's tools. They validate their arguments and change the store like real backends.

use serde_json::{Value, json};

use super::store::{OrderStatus, Store};

/// The tools the planner can call.
pub const TOOLS: &[&str] = &[
    "search_hotels",
    "create_booking",
    "lookup_order",
    "process_refund",
    "cancel_order",
];

/// Runs a tool. `Err` is what the tool returns as its error (recorded on the call).
pub fn run(store: &mut Store, name: &str, args: &Value) -> Result<Value, String> {
    match name {
        "search_hotels" => search_hotels(store, args),
        "create_booking" => create_booking(store, args),
        "lookup_order" => lookup_order(store, args),
        "process_refund" => process_refund(store, args),
        "cancel_order" => cancel_order(store, args),
        other => Err(format!("unknown tool `{other}`")),
    }
}

fn str_arg<'a>(args: &'a Value, name: &str) -> Result<&'a str, String> {
    args.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string argument `{name}`"))
}

fn search_hotels(store: &Store, args: &Value) -> Result<Value, String> {
    let city = str_arg(args, "city")?;
    let max_price = args.get("max_price").and_then(Value::as_u64);
    let hits: Vec<Value> = store
        .hotels
        .iter()
        .filter(|h| h.city.eq_ignore_ascii_case(city))
        .filter(|h| h.rooms > 0)
        .filter(|h| max_price.is_none_or(|m| u64::from(h.price) <= m))
        .map(|h| json!({"hotel_id": h.id, "name": h.name, "price": h.price}))
        .collect();
    Ok(Value::Array(hits))
}

fn create_booking(store: &mut Store, args: &Value) -> Result<Value, String> {
    let hotel_id = str_arg(args, "hotel_id")?.to_owned();
    let check_in = str_arg(args, "check_in")?.to_owned();
    let nights = args.get("nights").and_then(Value::as_u64).unwrap_or(1);
    let guests = args.get("guests").and_then(Value::as_u64).unwrap_or(1);
    let hotel = store
        .hotels
        .iter_mut()
        .find(|h| h.id == hotel_id)
        .ok_or_else(|| format!("no hotel {hotel_id}"))?;
    if hotel.rooms == 0 {
        return Err(format!("{} is fully booked", hotel.name));
    }
    hotel.rooms -= 1;
    let reference = format!("BK-{}", 4100 + store.bookings.len());
    let total = u64::from(hotel.price) * nights;
    let record = json!({
        "reference": reference, "hotel_id": hotel_id, "hotel": hotel.name,
        "check_in": check_in, "nights": nights, "guests": guests, "total": total,
    });
    store.bookings.push(record.clone());
    Ok(record)
}

fn lookup_order(store: &Store, args: &Value) -> Result<Value, String> {
    let id = str_arg(args, "order_id")?;
    store
        .orders
        .iter()
        .find(|o| o.id == id)
        .map(Store::order_json)
        .ok_or_else(|| format!("order {id} not found"))
}

fn process_refund(store: &mut Store, args: &Value) -> Result<Value, String> {
    let id = str_arg(args, "order_id")?;
    let amount = args
        .get("amount")
        .and_then(Value::as_f64)
        .ok_or("missing number argument `amount`")?;
    let n = store.refunds.len();
    let order = store
        .orders
        .iter_mut()
        .find(|o| o.id == id)
        .ok_or_else(|| format!("order {id} not found"))?;
    if order.refunded {
        return Err(format!("order {id} was already refunded"));
    }
    if amount > order.total {
        return Err(format!(
            "refund of {amount} exceeds the order total {}",
            order.total
        ));
    }
    order.refunded = true;
    let record = json!({"refund_id": format!("RF-{}", 5000 + n), "order_id": id, "amount": amount, "eta_days": "5-7"});
    store.refunds.push(record.clone());
    Ok(record)
}

fn cancel_order(store: &mut Store, args: &Value) -> Result<Value, String> {
    let id = str_arg(args, "order_id")?;
    let order = store
        .orders
        .iter_mut()
        .find(|o| o.id == id)
        .ok_or_else(|| format!("order {id} not found"))?;
    if order.status != OrderStatus::Processing {
        return Err(format!(
            "order {id} has already shipped and cannot be cancelled"
        ));
    }
    order.status = OrderStatus::Cancelled;
    Ok(json!({"order_id": id, "status": "cancelled"}))
}
